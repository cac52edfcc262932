// What src/users offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { userEvents } from './events';
export { getUser } from './readmodel';
export { USER_SCHEMA, toResponse, type UserResponse } from './response';
export { usersSlice } from './slice';
