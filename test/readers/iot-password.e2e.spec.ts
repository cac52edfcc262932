// The IoT reader password is write-only: after a definition is stored with
// it, no GET route of the API (every one the OpenAPI document lists without
// a path parameter, the configuration archive and the log export included),
// no answer to the writes, no event in the log and no Redis key holds it in
// clear; the archive holds it in no form. It still works: tagtrail calls the
// simulated reader with it (the reader's firmware shows in health).
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { appWithEnv, until } from './support';
import { silent } from '../support/logger';
import { redisDump } from '../support/redis-dump';

describe('IoT reader password: write-only', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', LOG_LEVEL: 'info' });
  const password = `pw-${crypto.randomUUID()}`;
  const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 1, seed: 2, prefix: 'pwd-' });
  const sim = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 2), seed: 2, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent });
  after(() => sim.close());
  const forms = [password, Buffer.from(password).toString('base64'), Buffer.from(`root:${password}`).toString('base64')];
  const lacks = (where: string, text: string): void => {
    for (const f of forms) expect(text.includes(f), `${where} holds the password`).to.equal(false);
  };

  it('is used to call the reader and is found in no answer, archive, log line, event or Redis key', async () => {
    await sim.listen();
    const body = { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'IOT', scheme: 'http', port: sim.port, password, delivery: 'STREAM' } };
    const created = await app().request('POST', '/configuration/v1/readerDefinitions/create', { body });
    expect(created.status).to.equal(200);
    lacks('create answer', JSON.stringify(created.body));
    const replaced = await app().request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { body });
    expect(replaced.status).to.equal(200);
    lacks('createOrReplace answer', JSON.stringify(replaced.body));
    expect(replaced.body.connection.passwordSet).to.equal(true);
    // Usable: tagtrail reaches the reader with it.
    await until('the reader reached with the password', async () => ((await app().request('GET', `/health/v1/readers/${sim.name}`)).body?.version?.Firmware === '8.2.1-sim' ? true : undefined));

    const archive = await app().request('GET', '/support/v1/configuration');
    expect(archive.status).to.equal(200);
    const archived = JSON.stringify(archive.body);
    lacks('configuration archive', archived);
    expect(archived, 'the archive holds the sealed password').not.to.contain('sealed:');
    const events = (archive.body.streams as Array<{ stream: string; events: Array<{ data: { resource: { connection?: { password?: unknown } } } }> }>).find((s) => s.stream === `readerDefinition-${sim.name}`)?.events ?? [];
    expect(events.map((e) => e.data.resource.connection?.password)).to.deep.equal([null, null]);

    const openapi = (await app().request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const gets = Object.entries(openapi.paths).filter(([p, ops]) => ops['get'] !== undefined && !p.includes('{')).map(([p]) => p);
    expect(gets).to.include.members(['/configuration/v1/readerDefinitions/show', '/support/v1/configuration', '/support/v1/logs']);
    for (const path of [...gets, `/configuration/v1/readerDefinitions/show/${sim.name}`]) {
      const res = await app().request('GET', path);
      lacks(`GET ${path} (${res.status})`, typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? null));
    }

    // At rest: the log holds it sealed only, Redis not at all in clear.
    const store = EventStoreDBClient.connectionString(app().eventStoreConnectionString);
    try {
      for await (const r of store.readStream(`readerDefinition-${sim.name}`)) lacks('the definition event', JSON.stringify(r.event?.data));
    } finally {
      await store.dispose();
    }
    lacks('Redis', await redisDump(app().keyPrefix));
  });
});
