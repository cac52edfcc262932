// The retained log: every structured log line (src/core/logger.ts sink) is
// also appended to DATA_DIR/logs/tagtrail.log so GET /support/v1/logs can
// export a time range. Bounded: past MAX_BYTES the file is rotated
// (tagtrail.log -> .1 -> ... -> .KEEP, the oldest dropped), so at most
// (KEEP + 1) x MAX_BYTES stay on disk. Writes are synchronous appends of
// whole lines: simple, ordered, and a crash loses nothing already logged.
// Processes sharing one DATA_DIR share the file (O_APPEND keeps lines whole).
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setLogSink } from '../core/logger';

export const LOG_FILE_NAME = 'tagtrail.log';
export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const LOG_FILE_KEEP = 4;

export const logDir = (dataDir: string): string => join(dataDir, 'logs');

/** The retained files, oldest first. */
export function logFiles(dataDir: string, keep = LOG_FILE_KEEP): string[] {
  const base = join(logDir(dataDir), LOG_FILE_NAME);
  const rotated = Array.from({ length: keep }, (_, i) => `${base}.${keep - i}`);
  return [...rotated, base].filter((f) => existsSync(f));
}

export interface LogFile {
  write(line: string): void;
  close(): void;
}

export function openLogFile(dataDir: string, maxBytes = LOG_FILE_MAX_BYTES, keep = LOG_FILE_KEEP): LogFile {
  mkdirSync(logDir(dataDir), { recursive: true });
  const path = join(logDir(dataDir), LOG_FILE_NAME);
  let fd = openSync(path, 'a');
  let size = statSync(path).size;
  const rotate = (): void => {
    closeSync(fd);
    rmSync(`${path}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
    renameSync(path, `${path}.1`);
    fd = openSync(path, 'a');
    size = 0;
  };
  let closed = false;
  return {
    write(line) {
      if (closed) return;
      const bytes = Buffer.from(line + '\n');
      if (size > 0 && size + bytes.length > maxBytes) rotate();
      writeSync(fd, bytes);
      size += bytes.length;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
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
export function retainLogs(dataDir: string): () => void {
  const file = openLogFile(dataDir);
  const me = {};
  active = me;
  retainedIn = dataDir;
  setLogSink((_level, line) => {
    try {
      file.write(line);
    } catch {
      // A full disk must not take the service down with it; stdout still has the line.
    }
  });
  return () => {
    if (active === me) {
      active = undefined;
      retainedIn = undefined;
      setLogSink(undefined);
    }
    file.close();
  };
}
