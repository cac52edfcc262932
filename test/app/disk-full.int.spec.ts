// The whole service (`npm start`, every role) with its DATA_DIR on a small
// tmpfs of the test's own: refused at start when the disk has too little
// room, and degraded rather than stopped when the disk fills up while it runs.
import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { agentAuthorization } from '../../src/agents/guard';
import { collect } from '../support/helpers';
import { requestAt, waitForReadModels, type TestApp } from '../support/app';
import { childEnv, parseLogLines, removeChildState, runEntryPoint, serviceUp, type RunningProcess } from '../support/tagtrailProcess';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs';
import { READERS } from '../readerdefinitions/e2e-support';

const MIN_FREE_MB = 8;
const FACILITIES = '/configuration/v1/facilities';
const healthEvent = { events: [{ eventTime: '2026-11-29T10:00:00.000Z', type: 'THROUGHPUT', code: 'DROPPED_READ', args: {} }] };

/** Repeats `write` until it is answered something else than `okStatus`; returns that answer and what was taken before. */
async function untilRefused(write: (n: number) => Promise<{ status: number }>, okStatus: number): Promise<{ refused: Awaited<ReturnType<TestApp['request']>>; taken: number[] }> {
  const taken: number[] = [];
  // LMDB first reuses pages it freed itself: writes may still be taken for a while on a full disk.
  for (let n = 0; n < 1000; n++) {
    const res = (await write(n)) as Awaited<ReturnType<TestApp['request']>>;
    if (res.status !== okStatus) return { refused: res, taken };
    taken.push(n);
  }
  throw new Error('1000 writes were taken on a full disk');
}

describe('npm start on a data directory that fills up (a small tmpfs)', function () {
  this.timeout(300_000);
  let disk: Tmpfs | undefined;
  let proc: RunningProcess | undefined;

  before(function () {
    const mounted = mountTmpfs(32);
    if ('unavailable' in mounted) {
      console.log(`    (skipped: ${mounted.unavailable})`);
      this.skip();
    }
    disk = mounted;
  });

  afterEach(async () => {
    if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
    proc = undefined;
    rmSync(path.join(disk!.dir, 'filler'), { force: true });
  });

  after(async () => {
    disk?.unmount();
    await removeChildState();
  });

  it('refuses to start with less free space than DATA_DIR_MIN_FREE_MB: exit 1, one line naming the directory, the free and the needed bytes', async () => {
    disk!.fill('filler', 2 * 1024 * 1024);
    const dataDir = path.join(disk!.dir, 'refused');
    proc = runEntryPoint('src/main.ts', childEnv({ DATA_DIR: dataDir, DATA_DIR_MIN_FREE_MB: String(MIN_FREE_MB) }));
    expect(await proc.exited).to.equal(1);
    const errors = parseLogLines(proc.stderrLines);
    expect(errors).to.have.length(1);
    expect(errors[0]?.msg).to.contain('Not enough free space in the data directory');
    expect(errors[0]?.['dataDir']).to.equal(dataDir);
    expect(errors[0]?.['neededBytes']).to.equal(MIN_FREE_MB * 1024 * 1024);
    expect(errors[0]?.['freeBytes']).to.be.a('number').and.lessThan(MIN_FREE_MB * 1024 * 1024);
    // Refused before anything was opened: no event store, no retained log.
    expect(existsSync(dataDir)).to.equal(false);
  });

  it('answers writes 503 naming the full disk, keeps serving reads and stays up; writes again once space is freed, nothing acknowledged lost', async () => {
    proc = runEntryPoint('src/main.ts', childEnv({ DATA_DIR: path.join(disk!.dir, 'data'), DATA_DIR_MIN_FREE_MB: String(MIN_FREE_MB), LOG_LEVEL: 'info' }));
    const { baseUrl, connectionString } = await serviceUp(proc);
    await waitForReadModels(`${new URL(baseUrl).origin}/healthz`);
    const request = requestAt(baseUrl);
    const reader = `dock-${crypto.randomUUID()}`;
    expect((await request('POST', `${READERS}/create`, { body: { name: reader } })).status).to.equal(200);
    const secret = (await request('PUT', `/agent/v1/readers/${reader}/secret`)).body.secret as string;
    const reportHealth = () => request('POST', `/agent/v1/readers/${reader}/health`, { auth: agentAuthorization(reader, secret), body: healthEvent });
    const create = (name: string) => request('PUT', `${FACILITIES}/createOrReplace`, { body: { name } });
    const acknowledged = ['before-0', 'before-1'];
    for (const name of acknowledged) expect((await create(name)).status).to.equal(200);

    disk!.fill('filler');
    const { refused, taken } = await untilRefused((n) => create(`full-${n}`), 200);
    acknowledged.push(...taken.map((n) => `full-${n}`));
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('30');
    expect(refused.body.message).to.contain('The event store has no space left on its disk: nothing was written');
    expect(refused.body.errors).to.deep.equal([{ path: 'eventStore', reason: 'no space left on its disk', message: 'no space left on its disk' }]);
    // A reader's report the store cannot take is a 503 too: the agent keeps it and sends it again.
    expect((await untilRefused(() => reportHealth(), 204)).refused.status).to.equal(503);

    // Reads go on, and the process is still there.
    const names = async (): Promise<string[]> => ((await request('GET', `${FACILITIES}/show`)).body as Array<{ name: string }>).map((f) => f.name);
    expect(await names()).to.include.members(acknowledged);
    expect((await request('GET', `${FACILITIES}/show/before-0`)).status).to.equal(200);
    expect(proc.child.exitCode).to.equal(null);

    rmSync(path.join(disk!.dir, 'filler'));
    expect((await create('after-0')).status).to.equal(200);
    acknowledged.push('after-0');
    expect((await reportHealth()).status).to.equal(204);
    expect(await names()).to.include.members(acknowledged);
    // In the event log itself, not only in the read model.
    const client = EventStoreDBClient.connectionString(connectionString);
    try {
      for (const name of acknowledged) {
        const stream = await collect(client.readStream(`facility-${name}`));
        expect(stream.map((r) => r.event?.type), name).to.include('FacilityCreated');
      }
    } finally {
      await client.dispose();
    }

    proc.child.kill('SIGTERM');
    expect(await proc.exited, [...proc.stdoutLines, ...proc.stderrLines].join('\n')).to.equal(0);
    const logged = parseLogLines([...proc.stdoutLines, ...proc.stderrLines].filter((l) => l.startsWith('{'))).map((l) => l.msg);
    expect(logged).to.include('the event store disk is full: appends are refused until space is freed, reads go on');
    expect(logged).to.include('the event store writes again: its disk has space');
    expect(logged).not.to.include('unhandled rejection');
    expect(logged).not.to.include('uncaught exception');
  });
});
