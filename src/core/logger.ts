// Structured JSON logs, one object per line on stdout (stderr for errors), so
// operators can ship them to any log pipeline without a parser of ours.
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

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function currentThreshold(): number {
  const env = (process.env['LOG_LEVEL'] ?? 'info').toLowerCase();
  if (env === 'silent') return Number.POSITIVE_INFINITY;
  return ORDER[env as LogLevel] ?? ORDER.info;
}

// Errors do not serialise with JSON.stringify; keep their message and stack.
// Fields named like secrets (password, token, authorization, ...) are
// replaced by `***` at any depth, whoever logs them (core/redact.ts).
function normalise(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (isSecretField(k) && v !== undefined && v !== null) out[k] = '***';
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else if (typeof v === 'bigint') out[k] = v.toString();
    else out[k] = redactSecrets(v);
  }
  return out;
}

/**
 * A second destination for every line (the retained log file under DATA_DIR,
 * src/support/log-file.ts, that GET /support/v1/logs exports). It receives
 * info and above whatever LOG_LEVEL says (`silent` silences stdout only),
 * and debug lines when LOG_LEVEL=debug.
 */
export type LogSink = (level: LogLevel, line: string) => void;
let sink: LogSink | undefined;
export function setLogSink(next: LogSink | undefined): void {
  sink = next;
}
const sinkThreshold = (): number => Math.min(currentThreshold(), ORDER.info);

export function createLogger(component: string, base: LogFields = {}): Logger {
  const write = (level: LogLevel, msg: string, fields?: LogFields): void => {
    const toStdout = ORDER[level] >= currentThreshold();
    const toSink = sink !== undefined && ORDER[level] >= sinkThreshold();
    if (!toStdout && !toSink) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      component,
      msg,
      ...normalise(base),
      ...(fields ? normalise(fields) : {}),
    });
    if (toStdout) (level === 'error' ? process.stderr : process.stdout).write(line + '\n');
    if (toSink) sink?.(level, line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (sub, f) => createLogger(`${component}.${sub}`, { ...base, ...f }),
  };
}
