// Runs a token command on `tokens-<username>` and waits for the read model,
// so the next request (authentication included) sees the change.
import { isLeft } from 'fp-ts/Either';
import type { ResourceDeps } from '../core/resource/routes';
import { runCommand, type CommandOutcome } from '../core/command';
import type { EventMetadata } from '../core/events';
import { onTokens, tokenErrorToApi, type TokenCommand } from './decide';
import type { TokenEvent, TokensState } from './events';

/** The outcome, or the refusal thrown as its ApiError. */
export async function runTokenCommand(
  deps: ResourceDeps,
  command: TokenCommand,
  metadata: EventMetadata,
): Promise<CommandOutcome<TokensState, TokenEvent>> {
  const result = await runCommand(deps.client, onTokens(command.username), command, { metadata, waiter: deps.waiter });
  if (isLeft(result)) throw tokenErrorToApi(result.left);
  return result.right;
}
