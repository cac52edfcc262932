// Recipes through HTTP, against the whole service in-process: round trips
// with the defaults of each type filled in (unset optional fields null),
// duplicates, each rule of the published Errors list (docs/interface.md) (1, 2, 3, 4, 8) as a 400
// naming the field with nothing written, references to reader
// configurations and reader definitions, and roles.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { createUser, expectRefused, expectStatus, RC, RECIPES, seedReaderDefinition } from '../readerconfigurations/e2e-support';
import { inventoryBody, locationBody, normalBody, thresholdBody } from '../readerconfigurations/fixtures';

const inventory = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'INVENTORY', readerConfigurationName: 'inv', ...extra });
const location = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'LOCATION', readerConfigurationName: 'loc', ...extra });

describe('recipes over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
    const configurations = [
      inventoryBody({}, 'inv'),
      inventoryBody({ searchMode: 'SINGLE_TARGET' }, 'inv-single'),
      inventoryBody({ readerMode: 'DENSE_READER_M4' }, 'inv-dense'),
      locationBody({}, 'loc'),
      locationBody({ readerMode: 'DENSE_READER_M8' }, 'loc-dense'),
      thresholdBody({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' }, 'thr'),
      normalBody({}, 'normal'),
      { name: 'off', operation: 'DO_NOTHING' },
    ];
    for (const body of configurations) expectStatus(await app.request('POST', `${RC}/create`, { body }), 200);
    await seedReaderDefinition(app, 'r1');
    await seedReaderDefinition(app, 'r2');
    // What every refusal test tries to overwrite.
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: inventory('stored-inv') }), 200);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: location('stored-loc') }), 200);
  });
  after(async () => app?.stop());

  describe('round trips with the defaults of each type (the factory defaults clients expect, docs/interface.md)', () => {
    const common = { readerConfigurations: {} };

    it('INVENTORY: tagHeartbeatDuration PT5M, tagExpiryDuration null, computeWindow 20, reportingInterval 5', async () => {
      const res = await app.request('POST', `${RECIPES}/create`, { body: inventory('inv-defaults') });
      expectStatus(res, 200);
      const stored = {
        name: 'inv-defaults',
        type: 'INVENTORY',
        readerConfigurationName: 'inv',
        ...common,
        tagHeartbeatDuration: 'PT5M',
        tagExpiryDuration: null,
        computeWindow: 20,
        reportingInterval: 5,
        locationAggregationModel: null,
      };
      expect(res.body).to.deep.equal(stored);
      expect((await app.request('GET', `${RECIPES}/show/inv-defaults`)).body).to.deep.equal(stored);
      expect((await app.request('GET', `${RECIPES}/show`)).body).to.deep.include(stored);
    });

    it('LOCATION: minimumMovementInMeters 1, computeWindow 10, reportingInterval 5, tagHeartbeatDuration PT5M', async () => {
      const res = await app.request('POST', `${RECIPES}/create`, { body: location('loc-defaults') });
      expectStatus(res, 200);
      const stored = {
        name: 'loc-defaults',
        type: 'LOCATION',
        readerConfigurationName: 'loc',
        ...common,
        tagHeartbeatDuration: 'PT5M',
        tagExpiryDuration: null,
        computeWindow: 10,
        reportingInterval: 5,
        minimumMovementInMeters: 1,
      };
      expect(res.body).to.deep.equal(stored);
      expect((await app.request('GET', `${RECIPES}/show/loc-defaults`)).body).to.deep.equal(stored);
    });

    it('THRESHOLD: thresholdIds [], iterationDataLogEnabled false, profile null', async () => {
      const res = await app.request('POST', `${RECIPES}/create`, { body: { name: 'thr-defaults', type: 'THRESHOLD', readerConfigurationName: 'thr' } });
      expectStatus(res, 200);
      const stored = { name: 'thr-defaults', type: 'THRESHOLD', readerConfigurationName: 'thr', ...common, thresholdIds: [], profile: null, iterationDataLogEnabled: false, transitionParameters: null };
      expect(res.body).to.deep.equal(stored);
      expect((await app.request('GET', `${RECIPES}/show/thr-defaults`)).body).to.deep.equal(stored);
    });

    it('THRESHOLD transitionParameters: kept as given, each member range-checked', async () => {
      const body = { name: 'thr-params', type: 'THRESHOLD', readerConfigurationName: 'thr', transitionParameters: { quietSeconds: 2.5, minConfidence: 0.7 } };
      const res = await app.request('POST', `${RECIPES}/create`, { body });
      expectStatus(res, 200);
      expect(res.body.transitionParameters).to.deep.equal({ quietSeconds: 2.5, minConfidence: 0.7 });
      const bad = await app.request('POST', `${RECIPES}/create`, { body: { ...body, name: 'thr-bad', transitionParameters: { quietSeconds: 0, minConfidence: 2 } } });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['body.transitionParameters.minConfidence', 'body.transitionParameters.quietSeconds']);
      const onInventory = await app.request('POST', `${RECIPES}/create`, { body: { name: 'inv-params', type: 'INVENTORY', readerConfigurationName: 'inv', transitionParameters: {} } });
      expect(onInventory.status).to.equal(400);
      expect(onInventory.body.errors[0].path).to.equal('body.transitionParameters');
    });

    it('LLRP (deprecated, runs NORMAL configurations): locationReportingEnabled true, zoneModel GEOGRAPHIC, the rest null', async () => {
      const res = await app.request('POST', `${RECIPES}/create`, { body: { name: 'llrp-defaults', type: 'LLRP', readerConfigurationName: 'normal' } });
      expectStatus(res, 200);
      const stored = {
        name: 'llrp-defaults',
        type: 'LLRP',
        readerConfigurationName: 'normal',
        ...common,
        presencePipelineEnabled: null,
        locationReportingEnabled: true,
        zoneModel: 'GEOGRAPHIC',
        locationUpdateIntervalInSeconds: null,
        historyWindowSizeInCycles: null,
        computeWindowSizeInCycles: null,
        computeWindowTimeInSeconds: null,
        locationAggregationModel: null,
      };
      expect(res.body).to.deep.equal(stored);
      expect((await app.request('GET', `${RECIPES}/show/llrp-defaults`)).body).to.deep.equal(stored);
    });

    it('given values are kept; durations are stored canonical; tagHeartbeatMinutes becomes tagHeartbeatDuration', async () => {
      const body = location('loc-full', {
        tagHeartbeatDuration: 'PT60M',
        tagExpiryDuration: 30, // seconds, as Jackson writes a Duration
        minimumMovementInMeters: 2.5,
        computeWindow: 15,
        reportingInterval: 0,
      });
      const res = await app.request('PUT', `${RECIPES}/createOrReplace`, { body });
      expectStatus(res, 200);
      expect(res.body).to.include({ tagHeartbeatDuration: 'PT1H', tagExpiryDuration: 'PT30S', minimumMovementInMeters: 2.5, computeWindow: 15, reportingInterval: 0 });
      const minutes = await app.request('POST', `${RECIPES}/create`, { body: inventory('inv-minutes', { tagHeartbeatMinutes: 10 }) });
      expectStatus(minutes, 200);
      expect(minutes.body.tagHeartbeatDuration).to.equal('PT10M');
      expect(minutes.body).not.to.have.property('tagHeartbeatMinutes');
    });

    it('per-reader overrides: with a default, or alone (readerConfigurationName null)', async () => {
      const both = await app.request('POST', `${RECIPES}/create`, { body: inventory('with-overrides', { readerConfigurations: { r1: 'inv-single', r2: 'off' } }) });
      expectStatus(both, 200);
      expect(both.body).to.include({ readerConfigurationName: 'inv' });
      expect(both.body.readerConfigurations).to.deep.equal({ r1: 'inv-single', r2: 'off' });
      const alone = await app.request('POST', `${RECIPES}/create`, { body: { name: 'overrides-only', type: 'LOCATION', readerConfigurations: { r1: 'loc' } } });
      expectStatus(alone, 200);
      expect(alone.body.readerConfigurationName).to.equal(null);
      expect((await app.request('GET', `${RECIPES}/show/overrides-only`)).body).to.deep.equal(alone.body);
    });

    it('a DO_NOTHING configuration goes with every type', async () => {
      for (const type of ['LOCATION', 'INVENTORY', 'THRESHOLD', 'LLRP']) {
        const res = await app.request('POST', `${RECIPES}/create`, { body: { name: `off-${type}`, type, readerConfigurationName: 'off' } });
        expectStatus(res, 200);
      }
    });

    it('a recipe read back can be sent back as it is', async () => {
      for (const name of ['inv-defaults', 'loc-full', 'thr-defaults', 'llrp-defaults', 'overrides-only']) {
        const shown = (await app.request('GET', `${RECIPES}/show/${name}`)).body;
        const res = await app.request('PUT', `${RECIPES}/createOrReplace`, { body: shown });
        expectStatus(res, 200);
        expect(res.body).to.deep.equal(shown);
      }
    });

    it('create refuses an existing name with 409 and appends nothing; createOrReplace replaces; destroy 204 then 404', async () => {
      const before = (await app.request('GET', `${RECIPES}/show/inv-defaults`)).body;
      const head = await logHead(app.eventStoreConnectionString);
      const dup = await app.request('POST', `${RECIPES}/create`, { body: location('inv-defaults') });
      expectStatus(dup, 409);
      expect(dup.body.message).to.include('inv-defaults');
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expect((await app.request('GET', `${RECIPES}/show/inv-defaults`)).body).to.deep.equal(before);

      const replaced = await app.request('PUT', `${RECIPES}/createOrReplace`, { body: location('inv-defaults') });
      expectStatus(replaced, 200);
      expect(replaced.body.type).to.equal('LOCATION');
      expect((await app.request('GET', `${RECIPES}/show/inv-defaults`)).body).to.deep.equal(replaced.body);

      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/inv-defaults`), 204);
      expectStatus(await app.request('GET', `${RECIPES}/show/inv-defaults`), 404);
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/inv-defaults`), 404);
    });
  });

  describe('spec Errors, each a 400 naming the field and writing nothing', () => {
    it('1: tagHeartbeatMinutes together with tagHeartbeatDuration', async () => {
      const body = inventory('e1', { tagHeartbeatMinutes: 5, tagHeartbeatDuration: 'PT5M' });
      await expectRefused(app, RECIPES, body, 'body.tagHeartbeatMinutes', 'stored-inv');
    });

    it('2: reportingInterval below the minimum of a reader configuration\'s reader mode (default or override)', async () => {
      const [res] = await expectRefused(app, RECIPES, location('e2', { readerConfigurationName: 'loc-dense', reportingInterval: 1 }), 'body.reportingInterval', 'stored-loc');
      expect(res?.body.errors[0].reason).to.match(/at least 3.*DENSE_READER_M8/);
      await expectRefused(app, RECIPES, inventory('e2', { readerConfigurations: { r1: 'inv-dense' }, reportingInterval: 2 }), 'body.reportingInterval', 'stored-inv');
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: inventory('e2-ok', { readerConfigurations: { r1: 'inv-dense' }, reportingInterval: 3 }) }), 200);
    });

    it('3: reportingInterval 0 on a non-LOCATION recipe (LOCATION may)', async () => {
      await expectRefused(app, RECIPES, inventory('e3', { reportingInterval: 0 }), 'body.reportingInterval', 'stored-inv');
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: location('e3-ok', { reportingInterval: 0 }) }), 200);
    });

    it('4: tagExpiryDuration with INVENTORY + SINGLE_TARGET, or not longer than reportingInterval', async () => {
      await expectRefused(app, RECIPES, inventory('e4', { readerConfigurationName: 'inv-single', tagExpiryDuration: 'PT1M' }), 'body.tagExpiryDuration', 'stored-inv');
      await expectRefused(app, RECIPES, inventory('e4', { readerConfigurations: { r2: 'inv-single' }, tagExpiryDuration: 'PT1M' }), 'body.tagExpiryDuration', 'stored-inv');
      await expectRefused(app, RECIPES, location('e4', { reportingInterval: 5, tagExpiryDuration: 'PT5S' }), 'body.tagExpiryDuration', 'stored-loc');
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: location('e4-loc', { reportingInterval: 5, tagExpiryDuration: 'PT6S' }) }), 200);
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: inventory('e4-dual', { tagExpiryDuration: 'PT1M' }) }), 200);
    });

    it('8: a reader configuration whose operation is neither the recipe type nor DO_NOTHING (default or override)', async () => {
      const [res] = await expectRefused(app, RECIPES, inventory('e8', { readerConfigurationName: 'loc' }), 'body.readerConfigurationName', 'stored-inv');
      expect(res?.body.errors[0].reason).to.match(/LOCATION.*INVENTORY/);
      await expectRefused(app, RECIPES, location('e8', { readerConfigurations: { r1: 'thr' } }), 'body.readerConfigurations.r1', 'stored-loc');
      await expectRefused(app, RECIPES, { name: 'e8', type: 'THRESHOLD', readerConfigurationName: 'inv' }, 'body.readerConfigurationName', 'stored-inv');
      await expectRefused(app, RECIPES, { name: 'e8', type: 'LLRP', readerConfigurationName: 'thr' }, 'body.readerConfigurationName', 'stored-inv');
    });
  });

  describe('other rules', () => {
    it('a reader configuration that does not exist (default or override) is a 400', async () => {
      const [res] = await expectRefused(app, RECIPES, inventory('unknown-rc', { readerConfigurationName: 'nope' }), 'body.readerConfigurationName', 'stored-inv');
      expect(res?.body.message).to.include("'nope'");
      await expectRefused(app, RECIPES, inventory('unknown-rc', { readerConfigurations: { r1: 'nope' } }), 'body.readerConfigurations.r1', 'stored-inv');
    });

    it('an override for a reader definition that does not exist is a 400', async () => {
      await expectRefused(app, RECIPES, inventory('unknown-reader', { readerConfigurations: { ghost: 'inv' } }), 'body.readerConfigurations.ghost', 'stored-inv');
    });

    it('neither a default configuration nor an override is a 400', async () => {
      await expectRefused(app, RECIPES, { name: 'no-rc', type: 'INVENTORY' }, 'body.readerConfigurationName', 'stored-inv');
      await expectRefused(app, RECIPES, { name: 'no-rc', type: 'INVENTORY', readerConfigurationName: null, readerConfigurations: {} }, 'body.readerConfigurationName', 'stored-inv');
    });

    it('limits: tagHeartbeatDuration at least PT1M; computeWindow at least reportingInterval; movement in steps of 0.5; reportingInterval a divisor of 60', async () => {
      await expectRefused(app, RECIPES, inventory('lim', { tagHeartbeatDuration: 'PT59S' }), 'body.tagHeartbeatDuration', 'stored-inv');
      await expectRefused(app, RECIPES, location('lim', { reportingInterval: 30, computeWindow: 20 }), 'body.computeWindow', 'stored-loc');
      await expectRefused(app, RECIPES, location('lim', { minimumMovementInMeters: 0.7 }), 'body.minimumMovementInMeters', 'stored-loc');
      await expectRefused(app, RECIPES, location('lim', { minimumMovementInMeters: -1 }), 'body.minimumMovementInMeters', 'stored-loc');
      await expectRefused(app, RECIPES, inventory('lim', { reportingInterval: 7 }), 'body.reportingInterval', 'stored-inv');
      await expectRefused(app, RECIPES, inventory('lim', { tagHeartbeatDuration: 'five minutes' }), 'body.tagHeartbeatDuration', 'stored-inv');
    });

    it('fields of another recipe type are refused, naming them', async () => {
      await expectRefused(app, RECIPES, inventory('other-type', { minimumMovementInMeters: 1 }), 'body.minimumMovementInMeters', 'stored-inv');
      await expectRefused(app, RECIPES, location('other-type', { thresholdIds: [1] }), 'body.thresholdIds', 'stored-loc');
    });

    it('wrong types and unknown values name the field', async () => {
      await expectRefused(app, RECIPES, { name: 'bad-type', type: 'SCAN', readerConfigurationName: 'inv' }, 'body.type', 'stored-inv');
      await expectRefused(app, RECIPES, inventory('bad-window', { computeWindow: 'ten' }), 'body.computeWindow', 'stored-inv');
    });

    it('deleting a recipe is not refused (no jobs yet: see the JOBS HOOK in src/recipes/slice.ts)', async () => {
      expectStatus(await app.request('POST', `${RECIPES}/create`, { body: inventory('to-delete') }), 200);
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/to-delete`), 204);
    });
  });

  describe('roles', () => {
    it('JobRunner can show but not write (403, nothing appended); ConfigManager can write', async () => {
      const jobRunner = await createUser(app, 'runner', ['JobRunner']);
      const configManager = await createUser(app, 'configurer', ['ConfigManager']);
      const dataReader = await createUser(app, 'reader', ['DataReader']);
      const shown = await app.request('GET', `${RECIPES}/show/stored-inv`, { auth: jobRunner });
      expectStatus(shown, 200);
      expect(shown.body.name).to.equal('stored-inv');
      expectStatus(await app.request('GET', `${RECIPES}/show`, { auth: jobRunner }), 200);
      const head = await logHead(app.eventStoreConnectionString);
      expectStatus(await app.request('POST', `${RECIPES}/create`, { auth: jobRunner, body: inventory('by-runner') }), 403);
      expectStatus(await app.request('PUT', `${RECIPES}/createOrReplace`, { auth: jobRunner, body: inventory('stored-inv') }), 403);
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/stored-inv`, { auth: jobRunner }), 403);
      expectStatus(await app.request('GET', `${RECIPES}/show`, { auth: dataReader }), 403);
      expectStatus(await app.request('GET', `${RECIPES}/show`, { auth: null }), 401);
      expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
      expectStatus(await app.request('GET', `${RECIPES}/show/by-runner`), 404);
      expectStatus(await app.request('POST', `${RECIPES}/create`, { auth: configManager, body: inventory('by-manager') }), 200);
      expectStatus(await app.request('DELETE', `${RECIPES}/destroy/by-manager`, { auth: configManager }), 204);
    });
  });
});
