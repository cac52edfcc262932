// Authentication tokens: issue, list, revoke, validate. The tokens read model
// (tokensPart, projections/config/auth.ts) is a part of the config projection,
// since authentication needs it whatever slices run.
import type { Slice } from '../slice';
import { registerTokenRoutes } from './routes';

export const tokensSlice: Slice = {
  name: 'tokens',
  register: registerTokenRoutes,
};
