// Structured JSON logs through pino: one object a line on stdout (stderr for
// errors), so operators can ship them to any log pipeline without a parser of
// ours, and a copy in the retained log file (src/support/log-file.ts) that
// GET /support/v1/logs exports.
import pino from 'pino';
import { isSecretField, redactSecrets } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(component: string, fields?: LogFields): Logger;
}

// pino's numbers for the levels (what its destination is told as lastLevel).
const PINO_LEVEL: Record<LogLevel, number> = { debug: 20, info: 30, warn: 40, error: 50 };
const ERROR = PINO_LEVEL.error;
const SILENT = Number.POSITIVE_INFINITY;

/** Where lines go besides stdout: the retained log file. */
export interface LogSink {
  write(line: string): void;
}

// Set by setLogLevel (from the validated LOG_LEVEL) and setLogSink; module
// state because every logger of the process shares one stdout and one file.
let stdoutFrom = PINO_LEVEL.info;
let sink: LogSink | undefined;

/**
 * The lowest level written to stdout/stderr (`silent`: none). Entry points
 * call it with the configured LOG_LEVEL; returns the level it replaces.
 */
export function setLogLevel(level: LogLevel | 'silent'): LogLevel | 'silent' {
  const previous = (Object.keys(PINO_LEVEL) as LogLevel[]).find((l) => PINO_LEVEL[l] === stdoutFrom) ?? 'silent';
  stdoutFrom = level === 'silent' ? SILENT : PINO_LEVEL[level];
  return previous;
}

/**
 * The retained log file receives info and above whatever LOG_LEVEL says
 * (`silent` silences stdout only), and debug lines when LOG_LEVEL=debug.
 */
export function setLogSink(next: LogSink | undefined): void {
  sink = next;
}

const sinkFrom = (): number => Math.min(stdoutFrom, PINO_LEVEL.info);
const lowestWritten = (): number => (sink === undefined ? stdoutFrom : sinkFrom());

// A pino destination that routes each line by its level: pino sets lastLevel
// before every write on a destination that asks for metadata.
const destination = {
  [pino.symbols.needsMetadataGsym]: true,
  lastLevel: 0,
  write(line: string): void {
    const level = this.lastLevel;
    if (level >= stdoutFrom) (level >= ERROR ? process.stderr : process.stdout).write(line);
    if (sink !== undefined && level >= sinkFrom()) {
      try {
        sink.write(line);
      } catch {
        // A full disk must not take the service down with it; stdout still has the line.
      }
    }
  },
};

// Errors do not serialise as JSON; keep their message and stack. Fields named
// like secrets (password, token, authorization, ...) become `***` at any
// depth, whoever logs them (core/redact.ts).
function normalise(fields: LogFields | undefined): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (isSecretField(k) && v !== undefined && v !== null) out[k] = '***';
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else if (typeof v === 'bigint') out[k] = v.toString();
    else out[k] = redactSecrets(v);
  }
  return out;
}

// pino filters nothing itself (level debug): the level is checked by our
// loggers first, so changing it reaches loggers made before the change.
const root = pino(
  {
    level: 'debug',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: normalise },
  },
  destination,
);

export function createLogger(component: string, base: LogFields = {}): Logger {
  const p = root.child(normalise({ component, ...base }));
  const write = (level: LogLevel, msg: string, fields?: LogFields): void => {
    if (PINO_LEVEL[level] < lowestWritten()) return;
    p[level](fields ?? {}, msg);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (sub, f) => createLogger(`${component}.${sub}`, { ...base, ...f }),
  };
}
