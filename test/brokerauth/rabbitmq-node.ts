// A RabbitMQ node of its own for a test: spare ports, a temporary directory
// for its data, logs, configuration and Erlang cookie (HOME), so it never
// touches the machine's shared node at 5672. Started from the installed
// rabbitmq-server; stopped and removed by stop(), even after a failed test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as amqp from 'amqplib';
import { freePort } from '../../bench/support/ports';
import { sleep } from '../support/wait';

export interface RabbitTools {
  readonly server: string;
  readonly ctl: string;
}

/**
 * The rabbitmq-server and rabbitmqctl to run, or undefined when RabbitMQ is
 * not installed. Debian's /usr/sbin wrappers switch to the rabbitmq user,
 * which cannot write our temporary directory; the scripts they wrap can be
 * run by any user.
 */
export function findRabbitTools(): RabbitTools | undefined {
  for (const dir of ['/usr/lib/rabbitmq/bin', '/usr/local/lib/rabbitmq/bin']) {
    if (existsSync(join(dir, 'rabbitmq-server')) && existsSync(join(dir, 'rabbitmqctl'))) {
      return { server: join(dir, 'rabbitmq-server'), ctl: join(dir, 'rabbitmqctl') };
    }
  }
  const which = (name: string): string | undefined => {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : undefined;
  };
  const server = which('rabbitmq-server');
  const ctl = which('rabbitmqctl');
  return server && ctl ? { server, ctl } : undefined;
}

/** A port nobody listens on right now (the node binds it a moment later): the benchmarks' helper. */
export const sparePort = freePort;

export interface RabbitNode {
  readonly nodeName: string;
  readonly port: number;
  /** amqp://user:password@127.0.0.1:port/%2F */
  url(user: string, password: string): string;
  /** Runs rabbitmqctl against the node (e.g. ['add_vhost', 'other']); throws on failure. */
  ctl(args: readonly string[]): void;
  /** The node's log so far (for failure messages). */
  logTail(lines?: number): string;
  /** Stops the node process (`rabbitmqctl stop`) and starts it again on the same data directory and ports. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RabbitNodeOptions {
  /** rabbitmq.conf; `{{PORT}}` is replaced by the node's AMQP port. */
  readonly config: string;
  /** Plugins to enable, e.g. ['rabbitmq_auth_backend_http']. */
  readonly plugins: readonly string[];
  readonly startTimeoutMs?: number;
}


export async function startRabbitNode(tools: RabbitTools, opts: RabbitNodeOptions): Promise<RabbitNode> {
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-rabbit-'));
  const port = await sparePort();
  let distPort = await sparePort();
  while (distPort === port) distPort = await sparePort();
  const nodeName = `tagtrail-auth-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}@localhost`;
  writeFileSync(join(dir, 'rabbitmq.conf'), opts.config.replaceAll('{{PORT}}', String(port)));
  writeFileSync(join(dir, 'enabled_plugins'), `[${opts.plugins.join(',')}].\n`);
  const env = {
    ...process.env,
    HOME: dir, // its own Erlang cookie, created at first start
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
  };
  const outPath = join(dir, 'server.out');
  let child: ChildProcess | undefined;
  let exited = true;
  let exitedPromise: Promise<void> = Promise.resolve();
  const spawnServer = (): void => {
    const out = openSync(outPath, 'a');
    // Its own process group, so a forced stop reaches erl and its helpers.
    const c: ChildProcess = spawn(tools.server, [], { env, cwd: dir, detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    child = c;
    exited = false;
    exitedPromise = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    void exitedPromise.then(() => {
      if (child === c) exited = true;
    });
  };
  const killGroup = (): void => {
    if (exited || child?.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  // If the test process ends without stop() (a crash), do not leave the node running.
  process.once('exit', killGroup);

  const logTail = (lines = 40): string => {
    const files = [outPath, join(dir, 'log', `${nodeName}.log`)];
    return files
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'utf8').split('\n').slice(-lines).join('\n'))
      .join('\n');
  };

  /** Stops the node process: rabbitmqctl stop, SIGKILL of its group if that fails or takes too long. */
  const halt = async (): Promise<void> => {
    if (exited) return;
    const r = spawnSync(tools.ctl, ['-n', nodeName, 'stop'], { env, timeout: 30_000, encoding: 'utf8' });
    if (r.status !== 0) killGroup();
    await Promise.race([exitedPromise, sleep(15_000)]);
    killGroup();
    await exitedPromise;
  };

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await halt();
    process.removeListener('exit', killGroup);
    rmSync(dir, { recursive: true, force: true });
  };

  // Up when the internal user guest (allowed from loopback) can open a connection.
  const waitUp = async (): Promise<void> => {
    const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
    for (;;) {
      if (exited) {
        const tail = logTail();
        await stop();
        throw new Error(`rabbitmq-server exited during start-up:\n${tail}`);
      }
      try {
        const conn = await amqp.connect(`amqp://guest:guest@127.0.0.1:${port}`, { timeout: 2000 });
        await conn.close();
        return;
      } catch {
        if (Date.now() > deadline) {
          const tail = logTail();
          await stop();
          throw new Error(`RabbitMQ node ${nodeName} not up within ${opts.startTimeoutMs ?? 120_000} ms:\n${tail}`);
        }
        await sleep(250);
      }
    }
  };
  spawnServer();
  await waitUp();
  return {
    nodeName,
    port,
    url: (user, password) => `amqp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/%2F`,
    ctl: (args) => {
      const r = spawnSync(tools.ctl, ['-n', nodeName, ...args], { env, timeout: 30_000, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`rabbitmqctl ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
    },
    logTail,
    async restart() {
      await halt();
      spawnServer();
      await waitUp();
    },
    stop,
  };
}
