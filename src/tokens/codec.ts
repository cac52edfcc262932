// Request bodies of the token endpoints.
import * as t from 'io-ts';
import { TokenId } from '../auth';

/** `PUT /authentication/v1/revokeToken`. */
export const RevokeTokenBody = t.exact(t.type({ token: TokenId }));
export type RevokeTokenBody = t.TypeOf<typeof RevokeTokenBody>;
