// What the reader definitions slice offers to other slices.
export { withoutPassword } from './connection';
