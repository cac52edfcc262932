// The agent command channel end to end: commands issued with
// issueReaderCommand (as the support and upgrade endpoints will) on the app's
// event store, answered at check-in over HTTP, completed by the agent with
// POST .../commands/{commandId}; and the simulator's agent executing a REBOOT.
import { expect } from 'chai';
import { issueReaderCommand, readerCommandEvents, readerCommandsOf, readerCommandsStream } from '../../src/agents/commands';
import { readerHealthEvents, readerHealthStream } from '../../src/agents/events';
import { agentAuthorization } from '../../src/agents/guard';
import { readStream } from '../../src/core/eventstore';
import { silent } from '../support/logger';
import { ApiError } from '../../src/core/http/errors';
import { SimAgent } from '../../src/simulator/agent';
import { realClock } from '../../src/simulator/clock';
import { HttpClient } from '../../src/simulator/http';
import { generateLayout } from '../../src/simulator/layout';
import { Stats } from '../../src/simulator/stats';
import { World } from '../../src/simulator/world';
import { startTestApp, type TestApp } from '../support/app';
import { agentSide, errorPaths, READERS, type AgentSide } from '../readerdefinitions/e2e-support';
import { sleep } from '../support/wait';

const A = '/agent/v1/readers';
const R1 = 'dock door 1'; // needs escaping in paths (a space; a slash is refused in names)
const R2 = 'dock-2';
const p = (reader: string): string => `${A}/${encodeURIComponent(reader)}`;
const checkinBody = { agentId: 'agent-1', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };

describe('agent commands over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let side: AgentSide;
  const secrets: Record<string, string> = {};
  const as = (reader: string) => agentAuthorization(reader, secrets[reader] ?? '');
  const checkin = async (reader: string) => {
    const res = await app.request('POST', `${p(reader)}/checkin`, { body: checkinBody, auth: as(reader) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.commands as Array<{ id: string; type: string; args: Record<string, unknown> }>;
  };
  const complete = (reader: string, id: string, body: unknown, auth = as(reader)) =>
    app.request('POST', `${p(reader)}/commands/${encodeURIComponent(id)}`, { body, auth });

  before(async () => {
    app = await startTestApp();
    side = await agentSide(app);
    for (const name of [R1, R2]) {
      expect((await app.request('POST', `${READERS}/create`, { body: { name } })).status).to.equal(200);
      const res = await app.request('PUT', `${p(name)}/secret`);
      expect(res.status).to.equal(200);
      secrets[name] = res.body.secret;
    }
  });
  after(async () => {
    await side?.close();
    await app?.stop();
  });

  it('no commands: check-in answers commands: []', async () => {
    expect(await checkin(R2)).to.deep.equal([]);
  });

  it('issued -> answered at every check-in until DONE -> no longer answered; history records delivery and result', async () => {
    const { commandId } = await issueReaderCommand(side.deps, R1, 'REBOOT', { reason: 'support asked' });
    expect(commandId).to.match(/^[0-9a-f-]{36}$/);
    const expected = [{ id: commandId, type: 'REBOOT', args: { reason: 'support asked' } }];
    expect(await checkin(R1)).to.deep.equal(expected);
    expect(await checkin(R1)).to.deep.equal(expected); // until the agent reports
    expect(await checkin(R2)).to.deep.equal([]); // not another reader's

    expect((await complete(R1, commandId, { result: 'DONE' })).status).to.equal(204);
    expect(await checkin(R1)).to.deep.equal([]);
    expect((await complete(R1, commandId, { result: 'DONE' })).status, 'a retried report').to.equal(204);
    const late = await complete(R1, commandId, { result: 'FAILED', message: 'late' });
    expect(late.status).to.equal(409);
    expect(errorPaths(late.body)).to.deep.equal(['body.result']);

    const history = await readerCommandsOf(side.deps, R1);
    expect(history).to.have.length(1);
    expect(history[0]).to.deep.include({ commandId, type: 'REBOOT', args: { reason: 'support asked' }, result: 'DONE', message: null });
    expect(history[0]?.deliveredAt).to.be.a('string');
    expect(Date.parse(history[0]!.completedAt!)).to.be.at.least(Date.parse(history[0]!.deliveredAt!));
    const { events } = await readStream(side.deps.client, readerCommandsStream(R1), readerCommandEvents);
    expect(events.map((e) => e.type), 'delivered once though answered twice').to.deep.equal(['ReaderCommandIssued', 'ReaderCommandDelivered', 'ReaderCommandCompleted']);
    expect(events[2]?.metadata.user).to.equal(`agent:${R1}`);
  });

  it('several pending commands come oldest first; FAILED keeps its message', async () => {
    const sync = await issueReaderCommand(side.deps, R1, 'TIME_SYNC', {});
    const upgrade = await issueReaderCommand(side.deps, R1, 'UPGRADE', { versionIdentifier: '7.7.0', imageUrl: 'http://images/7.7.0.upg' });
    const reboot = await issueReaderCommand(side.deps, R1, 'REBOOT', {});
    expect(await checkin(R1)).to.deep.equal([
      { id: sync.commandId, type: 'TIME_SYNC', args: {} },
      { id: upgrade.commandId, type: 'UPGRADE', args: { versionIdentifier: '7.7.0', imageUrl: 'http://images/7.7.0.upg' } },
      { id: reboot.commandId, type: 'REBOOT', args: {} },
    ]);
    expect((await complete(R1, upgrade.commandId, { result: 'FAILED', message: 'no space left' })).status).to.equal(204);
    expect((await checkin(R1)).map((c) => c.id)).to.deep.equal([sync.commandId, reboot.commandId]);
    expect((await complete(R1, sync.commandId, { result: 'DONE', message: 'offset 12 ms' })).status).to.equal(204);
    expect((await complete(R1, reboot.commandId, { result: 'DONE' })).status).to.equal(204);
    expect(await checkin(R1)).to.deep.equal([]);
    const history = await readerCommandsOf(side.deps, R1);
    expect(history.slice(-3).map((r) => [r.type, r.result, r.message])).to.deep.equal([
      ['TIME_SYNC', 'DONE', 'offset 12 ms'],
      ['UPGRADE', 'FAILED', 'no space left'],
      ['REBOOT', 'DONE', null],
    ]);
  });

  it('unknown command 404; another reader\'s command: 403 on its path, 404 on ours (and it stays pending)', async () => {
    expect((await complete(R1, crypto.randomUUID(), { result: 'DONE' })).status).to.equal(404);
    const other = await issueReaderCommand(side.deps, R2, 'REBOOT', {});
    expect((await complete(R2, other.commandId, { result: 'DONE' }, as(R1))).status).to.equal(403);
    expect((await complete(R1, other.commandId, { result: 'DONE' })).status).to.equal(404);
    expect((await checkin(R2)).map((c) => c.id)).to.deep.equal([other.commandId]);
    expect((await complete(R2, other.commandId, { result: 'DONE' })).status).to.equal(204);
  });

  it('401 without agent credentials or with user credentials; 400 naming the field for a bad body, nothing stored', async () => {
    const { commandId } = await issueReaderCommand(side.deps, R2, 'TIME_SYNC', {});
    expect((await complete(R2, commandId, { result: 'DONE' }, null as unknown as string)).status).to.equal(401);
    expect((await app.request('POST', `${p(R2)}/commands/${commandId}`, { body: { result: 'DONE' } })).status).to.equal(401);
    for (const [body, path] of [[{ result: 'MAYBE' }, 'body.result'], [{}, 'body.result'], [{ result: 'FAILED', message: 3 }, 'body.message']] as const) {
      const res = await complete(R2, commandId, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorPaths(res.body)).to.deep.equal([path]);
    }
    expect((await readerCommandsOf(side.deps, R2)).find((r) => r.commandId === commandId)?.result).to.equal(null);
    expect((await complete(R2, commandId, { result: 'DONE' })).status).to.equal(204);
  });

  it('issueReaderCommand: 404 for an unknown reader, 400 naming args.<field> for args that do not fit', async () => {
    const refusal = async (f: () => Promise<unknown>): Promise<ApiError> => {
      try {
        await f();
      } catch (err) {
        if (err instanceof ApiError) return err;
        throw err;
      }
      throw new Error('not refused');
    };
    expect((await refusal(() => issueReaderCommand(side.deps, 'ghost', 'REBOOT', {}))).status).to.equal(404);
    const bad = await refusal(() => issueReaderCommand(side.deps, R2, 'UPGRADE', {} as never));
    expect(bad.status).to.equal(400);
    expect(bad.errors.map((e) => e.path)).to.deep.equal(['args.versionIdentifier']);
  });

  it("the simulator's agent executes a REBOOT: DONE, silent, then a LIFECYCLE REBOOT health event with the reason", async function () {
    this.timeout(30_000);
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 5, seed: 3, prefix: 'cmd-sim-' });
    const reader = layout.readers[0]!;
    expect((await app.request('POST', `${READERS}/create`, { body: { name: reader.name } })).status).to.equal(200);
    const secret = (await app.request('PUT', `${p(reader.name)}/secret`)).body.secret as string;
    const stats = new Stats(realClock.now());
    const agent = new SimAgent({
      reader, world: World.random(layout, 3), seed: 3, http: new HttpClient(app.baseUrl, agentAuthorization(reader.name, secret)), clock: realClock, stats,
      log: silent, faultRates: {}, scriptedFaults: [], t0: realClock.now(), timeScale: 1, checkinMs: 200,
    });
    const stop = new AbortController();
    const running = agent.run(stop.signal);
    try {
      const { commandId } = await issueReaderCommand(side.deps, reader.name, 'REBOOT', { reason: 'e2e' });
      const deadline = Date.now() + 20_000;
      let result: string | null | undefined;
      let health: Array<{ type: string; code: string; args: Record<string, unknown> }> = [];
      while (Date.now() < deadline) {
        result = (await readerCommandsOf(side.deps, reader.name)).find((r) => r.commandId === commandId)?.result;
        const read = await readStream(side.deps.client, readerHealthStream(reader.name), readerHealthEvents).catch(() => ({ events: [] }));
        health = read.events.map((e) => e.data as unknown as { type: string; code: string; args: Record<string, unknown> });
        if (result === 'DONE' && health.some((h) => h.type === 'LIFECYCLE' && h.code === 'REBOOT')) break;
        await sleep(250);
      }
      expect(result).to.equal('DONE');
      const reboot = health.find((h) => h.type === 'LIFECYCLE' && h.code === 'REBOOT');
      expect(reboot, JSON.stringify(health)).to.not.equal(undefined);
      expect(reboot!.args['reason'], 'the reason of the command').to.equal('e2e');
      expect(stats.totals()).to.include({ commands: 1, errors: 0 });
    } finally {
      stop.abort();
      await running;
    }
    const answer = await app.request('POST', `${p(reader.name)}/checkin`, { body: checkinBody, auth: agentAuthorization(reader.name, secret) });
    expect(answer.body.commands).to.deep.equal([]);
  });
});
