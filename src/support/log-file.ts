// The retained log: every structured log line (src/core/logger.ts sink) is
// also appended to DATA_DIR/logs/tagtrail.<n>.log so GET /support/v1/logs can
// export a time range. Rotation is pino-roll's: past MAX_BYTES the next
// number is opened and only the newest KEEP_FILES files stay, so at most
// KEEP_FILES x MAX_BYTES (plus a line) stay on disk. Writes are synchronous
// appends of whole lines: ordered, and a crash loses nothing already logged.
// Processes sharing one DATA_DIR append to the same numbered file (O_APPEND
// keeps lines whole); each rotates by what it wrote itself.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pinoRoll from 'pino-roll';
import { setLogSink } from '../core/logger';

export const LOG_FILE_BASE = 'tagtrail';
export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const LOG_FILE_KEEP = 5;

export const logDir = (dataDir: string): string => join(dataDir, 'logs');

// tagtrail.<n>.log; tagtrail.log and tagtrail.log.<n> are the names of
// earlier versions, still exported (as the oldest) until they are removed.
const NUMBERED = /^tagtrail\.(\d+)\.log$/;
const EARLIER = /^tagtrail\.log(?:\.(\d+))?$/;

/** The retained files, oldest first. */
export function logFiles(dataDir: string): string[] {
  const dir = logDir(dataDir);
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir);
  const numbered = (re: RegExp, missing: number) =>
    names.flatMap((n) => {
      const m = re.exec(n);
      return m ? [{ n, at: m[1] === undefined ? missing : Number(m[1]) }] : [];
    });
  const earlier = numbered(EARLIER, 0).sort((a, b) => b.at - a.at);
  const current = numbered(NUMBERED, 0).sort((a, b) => a.at - b.at);
  return [...earlier, ...current].map((f) => join(dir, f.n));
}

export interface LogFile {
  write(line: string): void;
  close(): Promise<void>;
}

export async function openLogFile(dataDir: string, opts: { maxBytes?: number; keep?: number } = {}): Promise<LogFile> {
  const stream = await pinoRoll({
    file: join(logDir(dataDir), LOG_FILE_BASE),
    extension: '.log',
    size: `${opts.maxBytes ?? LOG_FILE_MAX_BYTES}b`,
    // With removeOtherLogFiles pino-roll keeps `count` files in all, the one in use included.
    limit: { count: opts.keep ?? LOG_FILE_KEEP, removeOtherLogFiles: true },
    mkdir: true,
    sync: true,
  });
  let closed = false;
  return {
    write(line) {
      if (!closed) stream.write(line.endsWith('\n') ? line : `${line}\n`);
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      });
    },
  };
}

let retainedIn: string | undefined;
let active: object | undefined;
/** The DATA_DIR whose log file this process writes (what the log export reads). */
export const retainedLogDataDir = (): string | undefined => retainedIn;

/**
 * Retains this process's log lines under dataDir until the returned close.
 * The latest call wins (one service a process; tests start several in turn):
 * closing an older one leaves the newer one's sink in place.
 */
export async function retainLogs(dataDir: string): Promise<() => Promise<void>> {
  const file = await openLogFile(dataDir);
  const me = {};
  active = me;
  retainedIn = dataDir;
  setLogSink(file);
  return async () => {
    if (active === me) {
      active = undefined;
      retainedIn = undefined;
      setLogSink(undefined);
    }
    await file.close();
  };
}
