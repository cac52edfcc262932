// The whole process as `npm start` runs it: embedded event store, Redis and
// RabbitMQ (running locally), /healthz, graceful shutdown on SIGTERM.
import { expect } from 'chai';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as server from '../../src/eventstore/server';
import { childEnv, parseLogLines, removeChildState, runEntryPoint, type RunningProcess, CHILD_START_MS } from '../support/tagtrailProcess';
import { waitForHttp } from '../support/wait';

// The Redis prefixes (and any data directories) childEnv made up for the children.
after(async () => removeChildState());

const SHUTDOWN_TIMEOUT_MS = 10_000;

interface Health {
  status: string;
  eventStore: { status: string };
  redis: { status: string };
  amqp: { status: string };
}

const waitForHealthy = (port: number, timeoutMs: number): Promise<Health> =>
  waitForHttp<Health>('the service to be healthy', `http://127.0.0.1:${port}/healthz`, () => true, { timeoutMs, intervalMs: 200 });

describe('npm start (src/main.ts)', function () {
  this.timeout(300_000);
  let dataDir: string;
  let proc: RunningProcess | undefined;

  before(function () {
    // Until the embedded event store exists the process cannot start.
    if (typeof server.startEmbeddedEventStore !== 'function') this.skip();
  });

  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tagtrail-main-'));
  });

  afterEach(async () => {
    if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
    proc = undefined;
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('starts every role, reports healthy dependencies and shuts down cleanly on SIGTERM', async () => {
    // Port 0 everywhere: the OS picks free ports, so parallel runs cannot collide.
    proc = runEntryPoint('src/main.ts', childEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      EVENTSTORE_PORT: '0',
      DATA_DIR: dataDir,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    }));
    const listening = await proc.waitForLog((l) => l.msg === 'http listening', CHILD_START_MS);
    const port = listening['port'];
    expect(port).to.be.a('number');

    const health = await waitForHealthy(port as number, 15_000);
    expect(health.status).to.equal('ok');
    expect(health.eventStore.status).to.equal('ok');
    expect(health.redis.status).to.equal('ok');
    expect(health.amqp.status).to.equal('ok');
    // The REST interface lives under the root path; nothing is mounted yet.
    const missing = await fetch(`http://127.0.0.1:${port as number}/itemsense/nothing-here`);
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { message: string }).message).to.be.a('string');

    const killedAt = Date.now();
    proc.child.kill('SIGTERM');
    const code = await proc.exited;
    expect(code, [...proc.stdoutLines, ...proc.stderrLines].join('\n')).to.equal(0);
    expect(Date.now() - killedAt).to.be.lessThan(SHUTDOWN_TIMEOUT_MS + 2000);

    // Structured logs only: every stdout line is a JSON object.
    const logs = parseLogLines(proc.stdoutLines);
    expect(logs.length).to.be.greaterThan(3);
    const steps = logs.filter((l) => l.msg === 'shutdown step done').map((l) => l['step']);
    expect(steps).to.deep.equal([
      'live event streams',
      'http server',
      'jobs runner',
      'metrics probes',
      'epcis background work',
      'readers background work',
      'queues background work',
      'snmp background work',
      'engine background work',
      'health background work',
      'upgrades background work',
      'read model projections',
      'ingestion summary',
      'amqp',
      'redis',
      'event store client',
      'embedded event store',
      'retained log file',
    ]);
    expect(logs.some((l) => l.msg === 'shutdown finished' && l['code'] === 0)).to.equal(true);
  });

  for (const [setting, what] of [['EVENTSTORE_PORT', 'the embedded event store'], ['PORT', 'the HTTP server']] as const) {
    it(`a second instance whose ${setting} is taken exits 1 naming the port, the setting and the process holding it`, async () => {
      const holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const taken = (holder.address() as net.AddressInfo).port;
      try {
        proc = runEntryPoint('src/main.ts', childEnv({
          PORT: '0',
          EVENTSTORE_PORT: '0',
          HOST: '127.0.0.1',
          EVENTSTORE_HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          [setting]: String(taken),
        }));
        const code = await proc.exited;
        expect(code).to.equal(1);
        const failed = parseLogLines(proc.stderrLines).find((l) => l.msg === 'start-up failed');
        const message = String((failed?.['err'] as { message?: string } | undefined)?.message);
        expect(message).to.contain(`${what} cannot listen on 127.0.0.1:${taken}`);
        expect(message).to.contain(`pid ${process.pid}`);
        expect(message).to.contain(setting);
        // The logged shutdown code is the exit code.
        expect(parseLogLines(proc.stdoutLines).find((l) => l.msg === 'shutdown finished')?.['code']).to.equal(1);
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    });
  }

  it('exits non-zero on bad configuration, naming the variable', async () => {
    proc = runEntryPoint('src/main.ts', childEnv({ PORT: 'abc', DATA_DIR: dataDir }));
    const code = await proc.exited;
    expect(code).to.not.equal(0);
    const errors = parseLogLines(proc.stderrLines);
    expect(errors.map((e) => e.msg).join('\n')).to.contain('PORT: expected an integer');
  });
});

describe('npm run eventstore (src/eventstore/main.ts)', function () {
  this.timeout(300_000);

  before(function () {
    if (typeof server.startEmbeddedEventStore !== 'function') this.skip();
  });

  it('runs the embedded event store alone and serves a second process', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tagtrail-es-'));
    const store = runEntryPoint('src/eventstore/main.ts', childEnv({
      EVENTSTORE_PORT: '0',
      DATA_DIR: dataDir,
    }));
    let api: RunningProcess | undefined;
    try {
      const started = await store.waitForLog((l) => l.msg === 'started', CHILD_START_MS);
      const esPort = started['port'];
      expect(esPort).to.be.a('number');
      // With its read models (an api alone answers 503 until some process builds them).
      api = runEntryPoint('src/main.ts', childEnv({
        ROLES: 'api,projections',
        PORT: '0',
        HOST: '127.0.0.1',
        EVENTSTORE_PORT: String(esPort),
        DATA_DIR: dataDir,
      }));
      const listening = await api.waitForLog((l) => l.msg === 'http listening', CHILD_START_MS);
      const health = await waitForHealthy(listening['port'] as number, 15_000);
      expect(health.eventStore.status).to.equal('ok');
      api.child.kill('SIGTERM');
      expect(await api.exited).to.equal(0);
      store.child.kill('SIGTERM');
      expect(await store.exited).to.equal(0);
      parseLogLines(store.stdoutLines);
    } finally {
      for (const p of [api, store]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
