// Authentication tokens: issue, list, revoke, validate. The tokens read model
// (projections/auth tokensPart) is part of every config projection already,
// since authentication needs it whatever slices run.
import type { Slice } from '../core/slice';
import { registerTokenRoutes } from './routes';

export const tokensSlice: Slice = {
  name: 'tokens',
  register: registerTokenRoutes,
};
