// Every reader of JSON tagtrail stored in Redis, given a value it cannot
// read (not JSON, or the shape of another version): it fails naming the
// value and the reason, or, where the code documents it, does without the
// value. Never a silently wrong type.
import { expect } from 'chai';
import { createClient } from 'redis';
import type { RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { StoredValueError } from '../../src/core/stored-json';
import { loadConfigOrThrow } from '../../src/config';
import { ConfigReadModel, CONFIG_READ_MODEL } from '../../src/core/resource/readmodel';
import { JobsReadModel, jobKeys, JOBS_READ_MODEL } from '../../src/jobs/readmodel';
import { ItemsReadModel } from '../../src/items/readmodel';
import { itemKeys, ITEMS_READ_MODEL } from '../../src/items/keys';
import { ItemsWritePipeline } from '../../projections/items/write-pipeline';
import { queueItemsReset } from '../../projections/items/reset';
import { TransitionsReadModel } from '../../src/items/transitions-readmodel';
import { transitionKeys, TRANSITIONS_READ_MODEL } from '../../src/items/transition-keys';
import { HealthReadModel } from '../../src/health/readmodel';
import { healthKeys, HEALTH_READ_MODEL } from '../../src/health/keys';
import { EpcisReadModel } from '../../src/epcis/readmodel';
import { EPCIS_READ_MODEL, epcisKeys } from '../../src/epcis/keys';
import { replaceStoredTokensByIds } from '../../projections/config/token-migration';
import { RedisPrincipalStore } from '../../src/auth/redis-store';
import { getUser, listUsers } from '../../src/users/readmodel';
import { facilityKind } from '../../src/facilities';
import { ReaderFeatureReadModel } from '../../src/readerdefinitions';
import { commandKeys, pendingCommandsOf } from '../../src/agents';
import { agentKeys } from '../../src/agents/events';
import { loadSettings, snmpSettingsStateKey } from '../../src/snmp/worker';
import { reportedVersions } from '../../src/upgrades/routes';
import { parseHistoryQuery, parseItemsQuery } from '../../src/items/query';
import { parseTransitionsQuery } from '../../src/items/transitions-query';
import { parseEpcisQuery } from '../../src/epcis/query';
import { locationIds } from '../../src/epcis/locations';
import { tokenIdOf, tokensKey, USER_KIND } from '../../src/auth';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { silent } from '../support/logger';

const NOT_JSON = '{"epc": "E1",';
/** Valid JSON of the wrong shape: what an older version might have written. */
const OLD_SHAPE = JSON.stringify({ v: 0 });

async function failure(p: Promise<unknown>): Promise<StoredValueError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StoredValueError) return err;
    throw err;
  }
  throw new Error('read a value that does not decode');
}

describe('stored JSON that does not decode, at every reader', function () {
  this.timeout(30_000);
  const prefix = testRedisPrefix();
  const keys = new RedisKeys(prefix);
  let redis: RedisClient;

  before(async () => {
    redis = createClient({ url: loadConfigOrThrow({}).redisUrl }) as unknown as RedisClient;
    await redis.connect();
    // Every read model ready in this generation: the gate lets the reads through.
    await redis.set(keys.generation, 'g1');
    const ready = JSON.stringify({ state: 'ready', generation: 'g1', since: new Date().toISOString() });
    for (const name of [CONFIG_READ_MODEL, JOBS_READ_MODEL, ITEMS_READ_MODEL, TRANSITIONS_READ_MODEL, HEALTH_READ_MODEL, EPCIS_READ_MODEL]) {
      await redis.hSet(keys.readModelStates, name, ready);
    }
  });

  after(async () => {
    await redis.quit();
    await removeRedisKeys(prefix);
  });

  it('config read model: names the kind, the name and the field', async () => {
    await redis.hSet(keys.config(facilityKind.kind), 'f1', OLD_SHAPE);
    const err = await failure(new ConfigReadModel(redis, keys).get(facilityKind, 'f1'));
    expect(err.message).to.match(/^config read model: facility f1 does not decode: /);
    await redis.hSet(keys.config(facilityKind.kind), 'f1', NOT_JSON);
    expect((await failure(new ConfigReadModel(redis, keys).list(facilityKind))).message).to.match(/^config read model: facility f1 is not JSON/);
  });

  it('users and authentication: a user or token that does not decode is named (the stored hash is not shown)', async () => {
    await redis.hSet(keys.config(USER_KIND), 'alice', JSON.stringify({ name: 'alice', roles: 'Admin', passwordHash: 'secret-hash' }));
    const viaUsers = await failure(getUser({ redis, keys }, 'alice'));
    expect(viaUsers.message).to.match(/^users read model: user alice does not decode: roles: /);
    expect((await failure(listUsers({ redis, keys }))).message).to.contain('user alice');
    const viaAuth = await failure(new RedisPrincipalStore(redis, keys).findUser('alice'));
    expect(viaAuth.message).to.match(/^auth read model: user alice does not decode: roles: /);
    expect(viaAuth.message).not.to.contain('secret-hash');
    await redis.hSet(tokensKey(keys.base), 'tid1', JSON.stringify({ id: 'tid1', username: 'alice', issued: 'x', valid: 'yes', seq: '1' }));
    expect((await failure(new RedisPrincipalStore(redis, keys).findTokenById('tid1'))).message).to.match(/^auth read model: token tid1 does not decode: valid: /);
  });

  it('token migration: an old token document of another shape is named by its id, never by the token', async () => {
    const token = 'e3b0c442-98fc-4c14-9afb-f4c8996fb924';
    await redis.hSet(tokensKey(keys.base), token, JSON.stringify({ username: 'alice', issued: '2020-01-01T00:00:00.000Z', valid: true }));
    const err = await failure(replaceStoredTokensByIds(redis, keys, silent));
    expect(err.message).to.contain(`auth read model: token ${tokenIdOf(token)}`).and.to.contain('seq: is required');
    expect(err.message).not.to.contain(token);
    await redis.hDel(tokensKey(keys.base), token);
  });

  it('jobs read model: names the job', async () => {
    await redis.hSet(jobKeys(keys).state, 'j1', OLD_SHAPE);
    expect((await failure(new JobsReadModel(redis, keys).get('j1'))).message).to.match(/^jobs read model: job j1 does not decode: /);
  });

  it('reader features: names the field', async () => {
    await redis.hSet(keys.config('readerFeatures'), 'r1/ANTENNA_HUB/progress', JSON.stringify({ requestStatus: 'SOMETIMES' }));
    const err = await failure(new ReaderFeatureReadModel(redis, keys).of('r1'));
    expect(err.message).to.match(/^reader features read model: r1\/ANTENNA_HUB\/progress does not decode: /);
  });

  it('items read model: an item or a history record that does not decode fails the query, the projection read and the reset, naming it', async () => {
    const k = itemKeys(keys);
    const item = { epc: 'E1', tagId: '', jobId: 'j1', xLocation: null, yLocation: null, zLocation: null, zone: 'z1', floor: null, facility: 'f1', presenceConfidence: 'HIGH', lastModifiedTime: '2026-01-01T00:00:00.000Z' };
    await redis.hSet(k.item, 'E1', JSON.stringify({ item: { ...item, xLocation: '1.5' }, ms: 0, at: '0:0' }));
    await redis.zAdd(k.all, { score: 0, value: 'E1' });
    await redis.zAdd(k.facility('f1'), { score: 0, value: 'E1' });
    const model = new ItemsReadModel(redis, keys);
    expect((await failure(model.get('e1'))).message).to.match(/^items read model: item E1 does not decode: item\.xLocation: /);
    expect((await failure(model.items(parseItemsQuery({})))).message).to.contain('items read model: item E1 does not decode');
    expect((await failure(new ItemsWritePipeline({ redis, commit: async (tx, _at, sending) => void (sending?.(), await tx.exec()) }, k).read(['E1']))).message).to.contain('items read model: item E1');
    // The MULTI is never executed: nothing is sent.
    const reset = queueItemsReset(redis, k, { facility: 'f1', clearHistory: true, requestId: 'q1' }, redis.multi());
    expect((await failure(reset)).message).to.contain('items read model: item E1');
    await redis.hSet(k.historyRecord, 'h1', JSON.stringify({ jobId: 'j1', record: { epc: 'E1' } }));
    await redis.zAdd(k.history, { score: 0, value: 'h1' });
    expect((await failure(model.history(parseHistoryQuery({})))).message).to.match(/^items read model: history record h1 does not decode: record\.tagId: /);
  });

  it('transitions read model: names the transition, and an iteration record', async () => {
    const k = transitionKeys(keys);
    await redis.hSet(k.record, 't1', JSON.stringify({ thresholdId: 1, thresholdName: 'door', epc: 'E1', jobId: 'j1', transitionId: 't1', destination: 'UP', confidence: 1, creationTime: 'x' }));
    await redis.zAdd(k.ids, { score: 0, value: 't1' });
    const model = new TransitionsReadModel(redis, keys);
    expect((await failure(model.transitions(parseTransitionsQuery({})))).message).to.match(/^transitions read model: transition t1 does not decode: destination: /);
    await redis.zAdd(k.iterations, { score: 0, value: NOT_JSON });
    expect((await failure(model.iterations({}))).message).to.match(/^transitions read model: an iteration record is not JSON/);
  });

  it('health read model: names the reader, and an event of the search', async () => {
    const k = healthKeys(keys);
    await redis.hSet(k.readers, 'r1', JSON.stringify({ readerName: 'r1', agent: null }));
    const model = new HealthReadModel(redis, keys);
    expect((await failure(model.state('r1'))).message).to.match(/^health read model: reader r1 does not decode: /);
    expect((await failure(model.states())).message).to.contain('health read model: reader r1');
    await redis.zAdd(k.events, { score: 1, value: JSON.stringify({ id: 'e1', eventTime: 'x', readerName: 'r1', type: 'WEATHER', code: 'C', args: {} }) });
    const search = model.search({ readerNames: undefined, types: undefined, codes: undefined, fromMs: undefined, toMs: undefined, pageSize: 10, after: undefined, fingerprint: 'f' });
    expect((await failure(search)).message).to.match(/^health read model: an event does not decode: type: /);
  });

  it('EPCIS read model: names the source', async () => {
    const k = epcisKeys(keys);
    await redis.hSet(k.source, 's1', JSON.stringify({ eventId: 'e1', ref: '0', kind: 'TELEPORTED', epc: 'urn:x', time: 0, recorded: 0, facility: null, zone: 'z1', threshold: null }));
    await redis.zAdd(k.ids, { score: 0, value: 's1' });
    const err = await failure(new EpcisReadModel(redis, keys).events(parseEpcisQuery({}), locationIds('https://example.com/', [])));
    expect(err.message).to.match(/^EPCIS read model: source s1 does not decode: kind: /);
  });

  it('SNMP notifier state: names the key', async () => {
    const key = snmpSettingsStateKey(keys);
    await redis.set(key, OLD_SHAPE);
    expect((await failure(loadSettings(redis, key))).message).to.contain(`SNMP notifier state at ${key} does not decode`);
    await redis.del(key);
    expect(await loadSettings(redis, key)).to.equal(null);
  });

  it('pending reader commands (documented tolerance): one that does not decode is skipped, the others are served', async () => {
    const k = commandKeys(keys);
    const good = { id: 'c2', type: 'REBOOT', args: {}, issuedAt: '2026-01-01T00:00:00.000Z', seq: 2 };
    await redis.hSet(k.pending('r1'), { c1: JSON.stringify({ id: 'c1', type: 'REBOOT', args: {}, issuedAt: 'x', seq: '1' }), c2: JSON.stringify(good), c3: NOT_JSON });
    expect((await pendingCommandsOf({ redis, keys }, 'r1')).commands).to.deep.equal([good]);
  });

  it("upgrades (documented tolerance): a reader whose last check-in does not decode has no known version", async () => {
    const key = agentKeys(keys).lastCheckinEvent;
    await redis.hSet(key, { r1: JSON.stringify({ versions: { App: '1.0', Firmware: '2.0' } }), r2: JSON.stringify({ versions: { App: 1 } }), r3: NOT_JSON });
    expect([...(await reportedVersions({ redis, keys }))]).to.deep.equal([['r1', { App: '1.0', Firmware: '2.0' }]]);
  });
});
