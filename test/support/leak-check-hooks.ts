// Mocha root hooks (loaded by .mocharc.json for every run): a test that
// leaves a connection, server, timer or child process behind fails the run.
// Mocha runs without `exit: true`, so such a handle would otherwise keep the
// process alive after the last test (or, hidden by a forced exit, let one test
// disturb the next). After the last test of a file (parallel mode runs root
// hooks once per file in each worker) or of the run (serial mode), every
// handle that keeps the event loop alive and was not there before the first
// test is listed, after a short grace for closes still under way.
import { ChildProcess } from 'node:child_process';
import { Socket as UdpSocket } from 'node:dgram';
import { Server, Socket } from 'node:net';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const workerpool = require('workerpool') as { isMainThread: boolean };

const GRACE_MS = 2000;

interface Refable {
  hasRef?: () => boolean;
  _handle?: { hasRef?: () => boolean } | null;
}

const processHandles = (): object[] => (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();

/** Whether `h` keeps the event loop alive (unref'ed handles do not). */
function keepsAlive(h: object): boolean {
  const r = h as Refable;
  if (typeof r.hasRef === 'function') return r.hasRef();
  if (r._handle && typeof r._handle.hasRef === 'function') return r._handle.hasRef();
  return true;
}

function isStdio(h: object): boolean {
  return h === process.stdin || h === process.stdout || h === process.stderr;
}

/** One line that says what the handle is and, where it can, who made it. */
export function describeHandle(h: object): string {
  if (h instanceof ChildProcess) return `child process ${h.pid ?? '?'}: ${h.spawnargs.join(' ').slice(0, 200)}`;
  if (h instanceof Server) {
    const a = h.address();
    return `server listening on ${typeof a === 'string' ? a : a ? `${a.address}:${a.port}` : '(closing)'}`;
  }
  if (h instanceof Socket) {
    if (h.remotePort !== undefined) return `socket ${h.localAddress ?? '?'}:${h.localPort ?? '?'} -> ${h.remoteAddress ?? '?'}:${h.remotePort}`;
    return `socket (not connected${h.connecting ? ', connecting' : ''})`;
  }
  if (h instanceof UdpSocket) {
    try {
      const a = h.address();
      return `udp socket ${a.address}:${a.port}`;
    } catch {
      return 'udp socket (unbound)';
    }
  }
  const t = h as { _idleTimeout?: number; _repeat?: number | null; _onTimeout?: { name?: string; toString(): string } };
  if (h.constructor.name === 'Timeout' && t._onTimeout) {
    const kind = t._repeat ? 'interval' : 'timer';
    const name = t._onTimeout.name || t._onTimeout.toString().replace(/\s+/g, ' ').slice(0, 120);
    return `${kind} of ${t._idleTimeout ?? '?'} ms: ${name}`;
  }
  return h.constructor.name;
}

/** Live handles (not stdio, not unref'ed) that are not in `before`. */
export function newHandles(before: ReadonlySet<object>): object[] {
  return processHandles().filter((h) => !before.has(h) && !isStdio(h) && keepsAlive(h));
}

let before = new Set<object>();

export const mochaHooks = {
  beforeAll(): void {
    before = new Set(processHandles());
  },
  async afterAll(): Promise<void> {
    const deadline = Date.now() + GRACE_MS;
    let left = newHandles(before);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      left = newHandles(before);
    }
    if (left.length === 0) return;
    // In the run's own process the leaked handles would keep it from ever
    // exiting: end it once the reporter has written the failure (the timer
    // itself keeps nothing alive). A parallel worker is ended by its pool, and
    // the next file it runs takes its own snapshot in beforeAll.
    if (workerpool.isMainThread) setTimeout(() => process.exit(process.exitCode || 1), 3000).unref();
    throw new Error(`left open after the tests (close them in an after/afterEach hook):\n${left.map((h) => `  ${describeHandle(h)}`).join('\n')}`);
  },
};
