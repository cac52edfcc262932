// Runs an entry point (src/main.ts, src/eventstore/main.ts) as a real child
// process, the way `npm start` does, and collects its JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeRedisKeys, testRedisPrefix } from './redis-prefix';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface LogLine {
  readonly level?: string;
  readonly component?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly stdoutLines: string[];
  readonly stderrLines: string[];
  /** Resolves with the exit code (or the signal name). */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Resolves with the first JSON line on stdout or stderr matching `pred`. */
  waitForLog(pred: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
}

function parse(line: string): LogLine | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null ? (v as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

function lineCollector(target: string[], onLine: () => void): (chunk: Buffer) => void {
  let partial = '';
  return (chunk) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    target.push(...lines.filter((l) => l !== ''));
    onLine();
  };
}

/**
 * How long a child process may take to start: it loads the whole service
 * through tsx, which on a loaded two-core machine (other test files and
 * builds running beside it) has taken well over 45 s.
 */
export const CHILD_START_MS = 120_000;

export function runEntryPoint(entry: string, env: NodeJS.ProcessEnv): RunningProcess {
  return runCommand(process.execPath, ['--require', 'tsx/cjs', entry], env);
}

/**
 * Any command in the checkout (`npm run dev`, ...), collected like an entry
 * point. `detached`: the child leads a process group of its own, so the test
 * can signal the whole group (`process.kill(-child.pid, signal)`) as a
 * terminal's Ctrl-C or systemd's stop does.
 */
export function runCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv, opts: { detached?: boolean } = {}): RunningProcess {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  const stdoutLines: string[] = [];
  const stderrLines: string[] = [];
  const waiters = new Set<() => void>();
  const notify = (): void => waiters.forEach((w) => w());
  child.stdout?.on('data', lineCollector(stdoutLines, notify));
  child.stderr?.on('data', lineCollector(stderrLines, notify));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? signal ?? -1);
      notify();
    });
  });

  const waitForLog = (pred: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        for (const l of [...stdoutLines, ...stderrLines]) {
          const parsed = parse(l);
          if (parsed && pred(parsed)) {
            done();
            resolve(parsed);
            return;
          }
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`process exited before the expected log line:\n${[...stdoutLines, ...stderrLines].join('\n')}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching log line within ${timeoutMs} ms:\n${[...stdoutLines, ...stderrLines].join('\n')}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return { child, stdoutLines, stderrLines, exited, waitForLog };
}

export function parseLogLines(lines: readonly string[]): LogLine[] {
  return lines.map((l) => {
    const parsed = parse(l);
    if (!parsed) throw new Error(`not a JSON log line: ${l}`);
    return parsed;
  });
}

const madeForChildren = { prefixes: [] as string[], dataDirs: [] as string[] };

/**
 * The environment of a child: ours minus tagtrail's variables, plus `vars`.
 * What `vars` leaves out never falls back to a default a service running
 * beside the tests uses: a random Redis prefix (not `tagtrail:`), a fresh
 * data directory (not ./data), free ports (not 8080 and 2113), loopback.
 * removeChildState() removes the prefixes and directories made here.
 */
export function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['PORT', 'HOST', 'ROOT_PATH', 'DATA_DIR', 'EVENTSTORE_CONNECTION_STRING', 'EVENTSTORE_HOST', 'EVENTSTORE_PORT', 'ROLES', 'LOG_LEVEL', 'REDIS_KEY_PREFIX']) {
    delete env[k];
  }
  const defaults: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', EVENTSTORE_PORT: '0', EVENTSTORE_HOST: '127.0.0.1' };
  if (vars['REDIS_KEY_PREFIX'] === undefined) {
    defaults['REDIS_KEY_PREFIX'] = testRedisPrefix();
    madeForChildren.prefixes.push(defaults['REDIS_KEY_PREFIX']);
  }
  if (vars['DATA_DIR'] === undefined) {
    defaults['DATA_DIR'] = mkdtempSync(path.join(tmpdir(), 'tagtrail-child-'));
    madeForChildren.dataDirs.push(defaults['DATA_DIR']);
  }
  return { ...env, ...defaults, ...vars };
}

/** Removes the Redis keys and data directories childEnv made up (call once the children are gone). */
export async function removeChildState(): Promise<void> {
  for (const prefix of madeForChildren.prefixes.splice(0)) await removeRedisKeys(prefix);
  for (const dir of madeForChildren.dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Waits until a child running src/main.ts has its embedded event store and
 * HTTP listener up; SIGKILLs it when they do not come.
 */
export async function serviceUp(proc: RunningProcess): Promise<{ connectionString: string; baseUrl: string }> {
  try {
    const store = await proc.waitForLog((l) => l.msg === 'embedded event store started', CHILD_START_MS);
    const listening = await proc.waitForLog((l) => l.msg === 'http listening', CHILD_START_MS);
    return { connectionString: String(store['connectionString']), baseUrl: `http://127.0.0.1:${Number(listening['port'])}/itemsense` };
  } catch (err) {
    proc.child.kill('SIGKILL');
    await proc.exited;
    throw err;
  }
}
