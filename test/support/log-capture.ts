// The log lines this process writes, captured instead of printed, at debug
// (so request lines and every other line reach stdout and the retained log
// file whatever level they are logged at): for tests that search the logs
// for what must never be there.
import { setLogLevel } from '../../src/core/logger';

export interface CapturedLogs {
  /** The JSON log lines written to stdout and stderr since the capture began. */
  readonly lines: string[];
  /** Puts stdout, stderr and the log level back. */
  restore(): void;
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const saved = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const level = setLogLevel('debug');
  const capturing = (real: typeof process.stdout.write) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      // Log lines are JSON objects; the test reporter's lines go through.
      if (!text.startsWith('{')) return real(chunk, ...(rest as []));
      lines.push(text);
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capturing(saved.out);
  process.stderr.write = capturing(saved.err);
  return {
    lines,
    restore() {
      process.stdout.write = saved.out;
      process.stderr.write = saved.err;
      setLogLevel(level);
    },
  };
}
