// A reader definition deleted while its LLRP reader is connected: the link
// closes and the reader's check-ins stop because it was deleted, so no
// NOT_RESPONDING is recorded for it afterwards (it was, 3 check-in
// intervals later). A reader that is still defined and goes away is recorded,
// as before: the same run shows the checker at work.
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { appWithEnv, closedAfter, mustOf, until } from './support';
import { silent } from '../support/logger';
import { sleep } from '../support/wait';

const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1', HEALTH_CHECKIN_INTERVAL_SECONDS: '1' };

describe('LLRP readers: a deleted reader records no health events', function () {
  this.timeout(120_000);
  const appOf = appWithEnv(ENV);
  const sims = closedAfter<SimLlrpReader>();

  it('deleted: no NOT_RESPONDING after it; still defined and gone: NOT_RESPONDING', async () => {
    const app = appOf();
    const must = mustOf(app);
    const layout = generateLayout({ facility: 'DEFAULT', readers: 2, families: ['SPEEDWAY'], tags: 5, seed: 11, prefix: 'llrp-del-' });
    const world = World.random(layout, 11);
    const [deleted, kept] = layout.readers.map((reader) => new SimLlrpReader({ reader, world, seed: 11, t0: Date.now(), timeScale: 1, port: 0, log: silent })) as [SimLlrpReader, SimLlrpReader];
    sims.push(deleted, kept);
    for (const sim of sims) {
      await sim.listen();
      await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: sim.port } });
    }
    for (const sim of sims) await until(`${sim.name} IDLE`, async () => ((await app.request('GET', `/health/v1/readers/${sim.name}`)).body?.state === 'IDLE' ? true : undefined));

    await must('DELETE', `/configuration/v1/readerDefinitions/destroy/${deleted.name}`);
    await kept.disappear();
    const notResponding = async (reader: string): Promise<unknown[]> => ((await app.request('POST', '/health/v1/events', { body: { readerNames: [reader], codes: ['NOT_RESPONDING'] } })).body?.events ?? []) as unknown[];
    await until('the reader still defined recorded NOT_RESPONDING', async () => ((await notResponding(kept.name)).length > 0 ? true : undefined));
    // Well past 3 check-in intervals of the deleted reader's last check-in: nothing for it.
    await sleep(3000);
    expect(await notResponding(deleted.name)).to.deep.equal([]);
  });
});
