// Authentication tokens: issue, list, revoke, validate. The tokens read model
// (tokensPart, projections/config/auth.ts) is a part of the config projection,
// since authentication needs it whatever slices run.
import { runCommand } from '../core/command';
import type { Slice, UserGone } from '../slice';
import { onTokens } from './decide';
import { registerTokenRoutes } from './routes';

/**
 * Revokes whatever tokens are still valid for a user that does not exist
 * (any more), so that a user created later under the same name does not
 * inherit them. Nothing to revoke is not an error.
 */
const revokeLeftoverTokens: UserGone = async (deps, username, metadata) => {
  await runCommand(deps.client, onTokens(username), { type: 'RevokeAllTokens', username, userExists: false }, { metadata, waiter: deps.waiter });
};

export const tokensSlice: Slice = {
  name: 'tokens',
  register: registerTokenRoutes,
  userGone: revokeLeftoverTokens,
};
