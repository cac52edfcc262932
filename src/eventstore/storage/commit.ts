// Committing the event log's writes through lmdb-js, including what lmdb-js
// leaves to its caller when a commit fails (a full disk, a failing one):
// - the rejection a write gets says only "Commit failed (see commitError for
//   details)"; the cause is in a second promise, `commitError`, which nothing
//   else awaits (left alone, it is an unhandled rejection);
// - `root.flushed` and `root.close()` wait for the flush of whichever
//   transaction is the latest at that moment, and the flush of a failed
//   transaction never comes: a write committed just before a failing one
//   would never be acknowledged, and closing the log would hang;
// - the event-turn batch of a failed transaction rejects one more promise
//   that no caller can reach (isCommitFailureEcho).
import type { RootDatabase } from 'lmdb';
import { isNoSpace } from '../../core/disk-space';
import { StorageFull } from './errors';

/**
 * Runs `body` in a write transaction and resolves once that transaction is
 * on disk. A failure rejects with StorageFull when `dir`'s disk had no room,
 * else with the cause lmdb gave.
 */
export async function commitDurably(root: RootDatabase, dir: string, body: () => unknown): Promise<void> {
  const committed = root.transaction(body);
  // Taken at once, while the latest transaction is this one (see the top of the file).
  const flushed = new Promise<unknown>((resolve, reject) => root.flushed.then(resolve, reject));
  try {
    await Promise.all([committed, flushed]);
  } catch (err) {
    const cause = await commitCause(err);
    throw isNoSpace(cause, dir) ? new StorageFull(cause) : cause;
  }
}

/** What lmdb rejected `commitError` with, or the failure itself when it carries none. */
function commitCause(err: unknown): Promise<unknown> {
  const pending = typeof err === 'object' && err !== null ? (err as { commitError?: unknown }).commitError : undefined;
  if (!(pending instanceof Promise)) return Promise.resolve(err);
  // lmdb rejects it in the same callback as the commit: one still open a turn later never will be.
  return Promise.race([
    pending.then(() => err, (cause: unknown) => cause),
    new Promise<unknown>((resolve) => setImmediate(resolve, err)),
  ]);
}

/** Tries before close gives up on an empty transaction (each fails only when it shared a failing write's transaction). */
const EMPTY_COMMIT_ATTEMPTS = 3;

/**
 * Before closing: lmdb's close waits for the flush of the latest
 * transaction, which never comes when that one failed. An empty
 * transaction needs no space, so once it is through the latest transaction
 * is one that committed, and every write before it is flushed.
 */
export async function settleWrites(root: RootDatabase, dir: string): Promise<void> {
  for (let attempt = 0; attempt < EMPTY_COMMIT_ATTEMPTS; attempt++) {
    try {
      await commitDurably(root, dir, () => undefined);
      return;
    } catch {
      // A write still in flight failed in the same transaction; the next try is alone.
    }
  }
}

/**
 * For the crash handler: lmdb-js rejects, for every failed commit, a promise
 * of its event-turn batch that no caller can reach, so Node reports it as
 * unhandled. The writes of that transaction were answered with the failure;
 * this is an echo of it, not a crash.
 */
export function isCommitFailureEcho(reason: unknown): boolean {
  return reason instanceof Error && 'commitError' in reason && reason.message.startsWith('Commit failed');
}
