// An exclusive, kernel-held lock on a directory, so one process at a time
// owns what is in it (the embedded event store's files, an engine
// partition's snapshots). Two processes appending to one LMDB log from their
// own in-memory positions overwrite each other's acknowledged events.
//
// Node has no flock(2), so the lock is held by a small child: util-linux's
// flock(1) locks `<dir>/owner.lock` and then waits on its standard input.
// The kernel releases the lock when the last holder of the file closes it:
// when this process ends in any way (kill -9 included) its end of the pipe
// closes, the child's `cat` sees end of file and exits, and the lock is gone.
// A pid file could not do that: a stale one (after a crash, in a container
// whose pids start again at 1) cannot be told from a live one without races.
// The lock works between containers sharing a volume, as it lives in the
// kernel's file table, not in a pid namespace.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import * as t from 'io-ts';
import { decodeStoredOrAbsent } from './stored-json';

export const LOCK_FILE = 'owner.lock';
/** flock's exit code when the lock is taken (chosen: EX_TEMPFAIL). */
const CONFLICT_EXIT = 75;
const LOCKED_LINE = 'locked';

export interface DirLock {
  readonly dir: string;
  /** Lets the lock go (idempotent). */
  release(): Promise<void>;
}

/** Who holds a lock, as the holder wrote it into the lock file. */
export interface LockHolder {
  readonly pid?: number;
  readonly host?: string;
  readonly since?: string;
  readonly what?: string;
}

export class DirectoryLocked extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    const who = holder.pid === undefined ? 'another process (its pid is not written yet)' : `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}${holder.what ? ` (${holder.what})` : ''}`;
    super(`${dir} is in use by ${who}: one process at a time may own it. Stop that process, or give this one another directory.`);
    this.name = 'DirectoryLocked';
  }
}

export class LockUnavailable extends Error {
  constructor(dir: string, why: string) {
    super(`cannot lock ${dir}: ${why}`);
    this.name = 'LockUnavailable';
  }
}

const LockHolderCodec = t.partial({ pid: t.number, host: t.string, since: t.string, what: t.string });

/** The holder written in `dir`'s lock file, as far as it can be read (a holder still starting has written nothing). */
export function readLockHolder(dir: string): LockHolder {
  let raw: string | undefined;
  try {
    raw = readFileSync(path.join(dir, LOCK_FILE), 'utf8');
  } catch {
    return {};
  }
  return decodeStoredOrAbsent(LockHolderCodec, raw) ?? {};
}

/** How long a lock whose holder has died is waited for: its flock child exits a moment after it. */
const DEAD_HOLDER_WAIT_MS = 3000;

function isGone(holder: LockHolder): boolean {
  if (holder.pid === undefined || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes the lock of `dir` (created if missing), or fails with
 * DirectoryLocked while another process holds it. A holder that has just
 * died (kill -9) is waited for a moment, as its lock goes a little after it.
 * `what` names the owner in the lock file.
 */
export async function lockDirectory(dir: string, what: string): Promise<DirLock> {
  const deadline = Date.now() + DEAD_HOLDER_WAIT_MS;
  for (;;) {
    try {
      return await tryLock(dir, what);
    } catch (err) {
      if (!(err instanceof DirectoryLocked) || !isGone(err.holder) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function tryLock(dir: string, what: string): Promise<DirLock> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  // In a process group of its own: a SIGTERM or Ctrl-C sent to this process's group would
  // otherwise end flock at once and free the directory while this process is still closing it.
  const child = spawn('flock', ['--nonblock', '--conflict-exit-code', String(CONFLICT_EXIT), file, 'sh', '-c', `echo ${LOCKED_LINE}; exec cat >/dev/null`], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  await whenLocked(child, dir);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), what })}\n`);
  // The child must not keep this process alive, nor be waited for.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
  let released: Promise<void> | undefined;
  return {
    dir,
    release() {
      released ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // Held open until the child is gone: the caller may take the lock again next.
        child.ref();
        child.once('exit', () => resolve());
        // Clear the holder first: after the release the file may name the next owner.
        try {
          writeFileSync(file, '');
        } catch {
          // The directory is gone; the lock goes with the child anyway.
        }
        child.stdin.end();
      });
      return released;
    },
  };
}

/** Resolves once flock printed that it holds the lock; rejects with why it does not. */
function whenLocked(child: ChildProcessWithoutNullStreams, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (out.includes(LOCKED_LINE)) {
        child.stdout.off('data', onData);
        child.removeListener('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null): void => {
      if (code === CONFLICT_EXIT) reject(new DirectoryLocked(dir, readLockHolder(dir)));
      else reject(new LockUnavailable(dir, `flock exited with ${code ?? 'a signal'}${err ? `: ${err.trim()}` : ''}`));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('exit', onExit);
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(new LockUnavailable(dir, e.code === 'ENOENT' ? 'the flock command (util-linux) is not installed' : e.message)),
    );
  });
}
