// Reader configurations through HTTP, against the whole service in-process:
// round trips (unset optional fields come back as null), duplicates, each
// field rule as a 400 naming the field with nothing written, the recipes
// that use a configuration protecting it (delete and breaking replace are
// 409), and roles.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { createUser, errorPaths, expectRefused, expectStatus, RC, RECIPES, seedReaderDefinition } from './e2e-support';
import { inventoryBody, locationBody, normalBody, thresholdBody } from './fixtures';

const INVENTORY_NULLS = {
  filter: null,
  tagPopulationEstimate: null,
  transmitPowerInDbm: null,
  polarization: null,
  antennas: null,
  channelConfig: null,
};

describe('reader configurations over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    // The configuration every refusal test tries to overwrite.
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'stored') }), 200);
  });
  after(async () => app?.stop());

  describe('round trips', () => {
    it('INVENTORY: create returns every field of the operation, unset ones null; show and show all agree', async () => {
      const created = await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv-1') });
      expectStatus(created, 200);
      const stored = {
        name: 'inv-1',
        operation: 'INVENTORY',
        configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', ...INVENTORY_NULLS },
      };
      expect(created.body).to.deep.equal(stored);
      expect((await app.request('GET', `${RC}/show/inv-1`)).body).to.deep.equal(stored);
      const all = await app.request('GET', `${RC}/show`);
      expectStatus(all, 200);
      expect(all.body).to.deep.include(stored);
    });

    it('INVENTORY with every field: filter defaults filled (memoryBank 1, pointer 32), polarized antenna ids kept', async () => {
      const configuration = {
        filter: { tagMask: 'E280' },
        tagPopulationEstimate: 40,
        transmitPowerInDbm: 30.5,
        polarization: true,
        antennas: [1, 52, 1001, 1052, 2001, 2052],
        channelConfig: { channelIndex: 3 },
      };
      const res = await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody(configuration, 'inv-full') });
      expectStatus(res, 200);
      expect(res.body.configuration).to.deep.equal({
        readerMode: 'MAX_THROUGHPUT',
        session: 2,
        searchMode: 'DUAL_TARGET',
        ...configuration,
        filter: { tagMask: 'E280', memoryBank: 1, pointer: 32 },
        channelConfig: { channelIndex: 3, txFrequenciesInMhz: null },
      });
      expect((await app.request('GET', `${RC}/show/inv-full`)).body).to.deep.equal(res.body);
    });

    it('LOCATION, THRESHOLD, NORMAL and DO_NOTHING round trip with their own fields only', async () => {
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [locationBody({ disabledAntennas: [3] }, 'loc-1'), { readerMode: 'MAX_MILLER', session: 2, filter: null, transmitPowerInDbm: null, disabledAntennas: [3] }],
        [
          thresholdBody({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' }, 'thr-1'),
          { readerMode: 'MAX_THROUGHPUT', session: 1, searchMode: 'DUAL_TARGET_WITH_BTOASELECT', filter: null, tagPopulationEstimate: null, transmitPowerInDbm: null, polarization: null, channelConfig: null },
        ],
        [normalBody({ reportConfig: { tidIncluded: true } }, 'normal-1'), {
          readerMode: 'DENSE_READER_M8',
          session: 1,
          filter: null,
          transmitPowerInDbm: null,
          reportConfig: { tidIncluded: true, peakRssiIncluded: null, phaseAngleIncluded: null, dopplerFrequencyIncluded: null, channelIncluded: null },
        }],
        // Details given with DO_NOTHING are ignored: a disabled reader uses none.
        [{ name: 'off-1', operation: 'DO_NOTHING', configuration: { readerMode: 'HYBRID', session: 0 } }, {}],
      ];
      for (const [body, configuration] of cases) {
        const res = await app.request('POST', `${RC}/create`, { body });
        expectStatus(res, 200);
        const stored = { name: body['name'], operation: body['operation'], configuration };
        expect(res.body).to.deep.equal(stored);
        expect((await app.request('GET', `${RC}/show/${String(body['name'])}`)).body).to.deep.equal(stored);
      }
    });

    it('a document read back can be sent back as it is (nulls mean unset)', async () => {
      const shown = (await app.request('GET', `${RC}/show/inv-1`)).body;
      const res = await app.request('PUT', `${RC}/createOrReplace`, { body: shown });
      expectStatus(res, 200);
      expect(res.body).to.deep.equal(shown);
    });

    it('create refuses an existing name with 409 and appends nothing; createOrReplace replaces; destroy 204 then 404', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      const dup = await app.request('POST', `${RC}/create`, { body: locationBody({}, 'inv-1') });
      expectStatus(dup, 409);
      expect(dup.body.message).to.include('inv-1');
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expect((await app.request('GET', `${RC}/show/inv-1`)).body.operation).to.equal('INVENTORY');

      const replaced = await app.request('PUT', `${RC}/createOrReplace`, { body: locationBody({ session: 3 }, 'inv-1') });
      expectStatus(replaced, 200);
      expect(replaced.body).to.deep.equal({
        name: 'inv-1',
        operation: 'LOCATION',
        configuration: { readerMode: 'MAX_MILLER', session: 3, filter: null, transmitPowerInDbm: null, disabledAntennas: null },
      });
      expect((await app.request('GET', `${RC}/show/inv-1`)).body).to.deep.equal(replaced.body);

      expectStatus(await app.request('DELETE', `${RC}/destroy/inv-1`), 204);
      expectStatus(await app.request('GET', `${RC}/show/inv-1`), 404);
      expectStatus(await app.request('DELETE', `${RC}/destroy/inv-1`), 404);
      expect((await app.request('GET', `${RC}/show`)).body.map((r: { name: string }) => r.name)).not.to.include('inv-1');
    });
  });

  describe('rules, each a 400 naming the field and writing nothing', () => {
    it('session must be 2 or 3 for LOCATION (0 and 1 refused, 2 and 3 accepted)', async () => {
      for (const session of [0, 1]) {
        const [res] = await expectRefused(app, RC, locationBody({ session }, 'loc-s'), 'body.configuration.session', 'stored');
        expect(res?.body.errors[0].reason).to.match(/2 or 3/);
      }
      for (const session of [2, 3]) {
        const res = await app.request('PUT', `${RC}/createOrReplace`, { body: locationBody({ session }, 'loc-s') });
        expectStatus(res, 200);
        expect(res.body.configuration.session).to.equal(session);
      }
    });

    it('session outside 0-3 is refused for every operation', async () => {
      await expectRefused(app, RC, inventoryBody({ session: 4 }, 'inv-s'), 'body.configuration.session', 'stored');
    });

    it('searchMode is required for INVENTORY', async () => {
      const body = inventoryBody({}, 'inv-nosearch');
      delete (body['configuration'] as Record<string, unknown>)['searchMode'];
      const [res] = await expectRefused(app, RC, body, 'body.configuration.searchMode', 'stored');
      expect(res?.body.message).to.match(/searchMode/);
      // null means unset: also refused
      await expectRefused(app, RC, inventoryBody({ searchMode: null }, 'inv-nosearch'), 'body.configuration.searchMode', 'stored');
    });

    it('searchMode is refused for LOCATION (a field of another operation)', async () => {
      await expectRefused(app, RC, locationBody({ searchMode: 'DUAL_TARGET' }, 'loc-x'), 'body.configuration.searchMode', 'stored');
    });

    it('readerMode and configuration are required for an active operation', async () => {
      await expectRefused(app, RC, { name: 'no-details', operation: 'INVENTORY' }, 'body.configuration', 'stored');
      const body = inventoryBody({}, 'no-mode');
      delete (body['configuration'] as Record<string, unknown>)['readerMode'];
      await expectRefused(app, RC, body, 'body.configuration.readerMode', 'stored');
    });

    it('antenna ids: 1-52 without polarization, also 1001-1052 and 2001-2052 with it; nothing else', async () => {
      await expectRefused(app, RC, inventoryBody({ antennas: [1, 53] }, 'ant'), 'body.configuration.antennas.1', 'stored');
      await expectRefused(app, RC, inventoryBody({ antennas: [0] }, 'ant'), 'body.configuration.antennas.0', 'stored');
      await expectRefused(app, RC, inventoryBody({ antennas: [1001] }, 'ant'), 'body.configuration.antennas.0', 'stored');
      await expectRefused(app, RC, inventoryBody({ polarization: true, antennas: [1053] }, 'ant'), 'body.configuration.antennas.0', 'stored');
      await expectRefused(app, RC, inventoryBody({ polarization: true, antennas: [3001] }, 'ant'), 'body.configuration.antennas.0', 'stored');
      await expectRefused(app, RC, inventoryBody({ antennas: [] }, 'ant'), 'body.configuration.antennas', 'stored');
      await expectRefused(app, RC, locationBody({ disabledAntennas: [60] }, 'ant'), 'body.configuration.disabledAntennas.0', 'stored');
      await expectRefused(app, RC, locationBody({ antennas: [1] }, 'ant'), 'body.configuration.antennas', 'stored');

      const plain = await app.request('POST', `${RC}/create`, { body: inventoryBody({ antennas: [1, 52] }, 'ant-plain') });
      expectStatus(plain, 200);
      expect(plain.body.configuration.antennas).to.deep.equal([1, 52]);
      const polarized = await app.request('POST', `${RC}/create`, {
        body: inventoryBody({ polarization: true, antennas: [1, 1001, 1052, 2001, 2052] }, 'ant-polarized'),
      });
      expectStatus(polarized, 200);
      expect(polarized.body.configuration.antennas).to.deep.equal([1, 1001, 1052, 2001, 2052]);
    });

    it('wrong types and unknown enum values name the field', async () => {
      await expectRefused(app, RC, { name: 'bad-op', operation: 'SCAN' }, 'body.operation', 'stored');
      await expectRefused(app, RC, inventoryBody({ readerMode: 'FAST' }, 'bad-mode'), 'body.configuration.readerMode', 'stored');
      await expectRefused(app, RC, inventoryBody({ filter: { tagMask: 'XYZ' } }, 'bad-mask'), 'body.configuration.filter.tagMask', 'stored');
    });

    it('a missing or empty name is a 400 naming body.name', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      for (const body of [{ operation: 'DO_NOTHING' }, { name: '', operation: 'DO_NOTHING' }, { name: 7, operation: 'DO_NOTHING' }]) {
        const res = await app.request('POST', `${RC}/create`, { body });
        expectStatus(res, 400);
        expect(errorPaths(res)).to.include('body.name');
      }
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    });
  });

  describe('configurations used by recipes', () => {
    before(async () => {
      expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'used') }), 200);
      expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'also-used') }), 200);
      const recipe = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'INVENTORY', readerConfigurationName: 'used', ...extra });
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: recipe('uses-default') }), 200);
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: recipe('expires', { tagExpiryDuration: 'PT1M' }) }), 200);
      const fast = { name: 'fast', type: 'INVENTORY', readerConfigurations: { r1: 'also-used' }, reportingInterval: 1 };
      await seedReaderDefinition(app, 'r1');
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: fast }), 200);
    });

    it('cannot be deleted while a recipe uses them: 409 naming every recipe, nothing appended', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      const res = await app.request('DELETE', `${RC}/destroy/used`);
      expectStatus(res, 409);
      expect(res.body.message).to.include("'uses-default'").and.to.include("'expires'");
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expectStatus(await app.request('GET', `${RC}/show/used`), 200);
    });

    it('replace changing the operation so a recipe breaks is 409 naming it; DO_NOTHING is always fine', async () => {
      const before = (await app.request('GET', `${RC}/show/used`)).body;
      const head = await logHead(app.eventStoreConnectionString);
      const res = await app.request('PUT', `${RC}/createOrReplace`, { body: locationBody({}, 'used') });
      expectStatus(res, 409);
      expect(res.body.message).to.include("'uses-default'").and.to.include("'expires'");
      expect(errorPaths(res)).to.include('body.operation');
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expect((await app.request('GET', `${RC}/show/used`)).body).to.deep.equal(before);

      // Still INVENTORY, another reader mode and transmit power: fine.
      expectStatus(await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody({ readerMode: 'HYBRID', transmitPowerInDbm: 25 }, 'used') }), 200);
      expectStatus(await app.request('PUT', `${RC}/createOrReplace`, { body: { name: 'used', operation: 'DO_NOTHING' } }), 200);
      expectStatus(await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody({}, 'used') }), 200);
    });

    it('replace breaking a recipe\'s tag expiry (searchMode) or reporting interval (reader mode) is 409 too', async () => {
      const single = await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody({ searchMode: 'SINGLE_TARGET' }, 'used') });
      expectStatus(single, 409);
      expect(single.body.message).to.include("'expires'").and.not.to.include("'uses-default'");
      expect(errorPaths(single)).to.deep.equal(['body.configuration.searchMode']);
      // 'fast' reports every second through a per-reader override; dense reader modes need 3 s.
      const before = (await app.request('GET', `${RC}/show/also-used`)).body;
      const head = await logHead(app.eventStoreConnectionString);
      const dense = await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody({ readerMode: 'DENSE_READER_M4' }, 'also-used') });
      expectStatus(dense, 409);
      expect(dense.body.message).to.include("'fast'");
      expect(errorPaths(dense)).to.deep.equal(['body.configuration.readerMode']);
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expect((await app.request('GET', `${RC}/show/also-used`)).body).to.deep.equal(before);
      expectStatus(await app.request('PUT', `${RC}/createOrReplace`, { body: inventoryBody({ readerMode: 'HYBRID' }, 'also-used') }), 200);
    });

    it('can be deleted once no recipe uses them', async () => {
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/uses-default`), 204);
      const still = await app.request('DELETE', `${RC}/destroy/used`);
      expectStatus(still, 409);
      expect(still.body.message).to.include("'expires'").and.not.to.include("'uses-default'");
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/expires`), 204);
      expectStatus(await app.request('DELETE', `${RC}/destroy/used`), 204);
      expectStatus(await app.request('GET', `${RC}/show/used`), 404);
    });
  });

  describe('roles', () => {
    it('JobRunner can show but not write (403, nothing appended); ConfigManager can write', async () => {
      const jobRunner = await createUser(app, 'runner', ['JobRunner']);
      const configManager = await createUser(app, 'configurer', ['ConfigManager']);
      const dataReader = await createUser(app, 'reader', ['DataReader']);
      expectStatus(await app.request('GET', `${RC}/show/stored`, { auth: jobRunner }), 200);
      expectStatus(await app.request('GET', `${RC}/show`, { auth: jobRunner }), 200);
      const head = await logHead(app.eventStoreConnectionString);
      expectStatus(await app.request('POST', `${RC}/create`, { auth: jobRunner, body: inventoryBody({}, 'by-runner') }), 403);
      expectStatus(await app.request('PUT', `${RC}/createOrReplace`, { auth: jobRunner, body: inventoryBody({}, 'stored') }), 403);
      expectStatus(await app.request('DELETE', `${RC}/destroy/stored`, { auth: jobRunner }), 403);
      expectStatus(await app.request('GET', `${RC}/show`, { auth: dataReader }), 403);
      expectStatus(await app.request('GET', `${RC}/show`, { auth: null }), 401);
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expectStatus(await app.request('GET', `${RC}/show/by-runner`), 404);
      expectStatus(await app.request('POST', `${RC}/create`, { auth: configManager, body: inventoryBody({}, 'by-manager') }), 200);
      expectStatus(await app.request('DELETE', `${RC}/destroy/by-manager`, { auth: configManager }), 204);
    });
  });
});
