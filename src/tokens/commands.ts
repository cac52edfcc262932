// Runs a token command on `tokens-<username>` and waits for the read model,
// so the next request (authentication included) sees the change.
import { isLeft, type Either } from 'fp-ts/Either';
import type { ResourceDeps } from '../core/resource/routes';
import { handleCommand, type CommandOutcome } from '../core/command';
import { ConcurrencyError } from '../core/eventstore';
import { conflict } from '../core/http/errors';
import type { EventMetadata } from '../core/events';
import { tokenErrorToApi, tokensAggregate, type TokenCommand, type TokenError } from './decide';
import { tokensStream, type TokenEvent, type TokensState } from './events';

/** The decision, without throwing: callers that may ignore a refusal (user deletion) look at it. */
export async function decideTokenCommand(
  deps: ResourceDeps,
  command: TokenCommand,
  metadata: EventMetadata,
): Promise<Either<TokenError, CommandOutcome<TokensState, TokenEvent>>> {
  try {
    const result = await handleCommand({
      client: deps.client,
      stream: tokensStream(command.username),
      ...tokensAggregate,
      command,
      metadata,
    });
    if (!isLeft(result)) await deps.waiter.waitFor(result.right.position);
    return result;
  } catch (err) {
    if (err instanceof ConcurrencyError) throw conflict(`Tokens of user ${command.username} were changed concurrently; retry`);
    throw err;
  }
}

/** The outcome, or the refusal thrown as its ApiError. */
export async function runTokenCommand(
  deps: ResourceDeps,
  command: TokenCommand,
  metadata: EventMetadata,
): Promise<CommandOutcome<TokensState, TokenEvent>> {
  const result = await decideTokenCommand(deps, command, metadata);
  if (isLeft(result)) throw tokenErrorToApi(result.left);
  return result.right;
}
