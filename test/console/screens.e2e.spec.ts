// Console screens in a real browser (Debian's Chromium through
// playwright-core) against the whole service, each on its own: queues
// (configure, listed with the broker's consumer count, delete), the
// thresholds form's readers map, and an upgrade of simulated readers driven
// from the console.
// Screenshots go to test-artifacts/console/. Every wait is on a condition.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, screenshot, until, type TestBrowser } from '../support/browser';
import { consume, type Consumer } from '../queues/support';
import { createHash } from 'node:crypto';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation, type Summary } from '../../src/simulator/run';
import { silent } from '../support/logger';
import { EventStoreDBClient } from '@eventstore/db-client';
import { appendChanges, changes, epc, projected, type Change } from './item-fixtures';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream } from '../../src/health/events';
import { waitForValue } from '../support/wait';
import { agentAuthorization } from '../../src/agents/guard';

describe('console screens in Chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;
  const consumers: Consumer[] = [];
  const stopSimulation = new AbortController();
  let simulation: Promise<Summary> | undefined;

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp({});
    consoleUrl = new URL('/console/', app.baseUrl).toString();
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('dialog', (d) => void d.accept());
    await logIn(page, consoleUrl, 'admin', 'admindefault');
  });
  after(async () => {
    stopSimulation.abort();
    await simulation?.catch(() => undefined);
    for (const c of consumers) await c.close();
    await browser?.close();
    await app?.stop();
  });
  afterEach(function () {
    expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
  });

  const openScreen = async (label: string): Promise<void> => {
    await page.click(`nav.side a:text-is("${label}")`);
  };

  /** The rows of `testid` in the DOM, in order: their data-row index and the text of their `cell`, read at one instant. */
  const renderedRows = async (testid: string, rows: string, cell = ':scope'): Promise<Array<{ n: number; text: string }>> =>
    page.$$eval(`[data-testid=${testid}] ${rows}[data-row]`, (els, c) => els.map((el) => ({ n: Number(el.getAttribute('data-row')), text: (el.querySelector(c)?.textContent ?? '').trim() })), cell);
  /**
   * A windowed list (rows 30 px high in `<testid>-scroll`) of `expected.length` rows: at each of `stops`, a bounded,
   * contiguous run of rows is in the DOM, and its first, the stop and its last row show `expected` at their index
   * (`cell` selects what to read in a row; rows and texts are read together, as the window may move after a
   * re-measure); the scroll height stands for every row.
   */
  const expectWindowed = async (testid: string, rows: string, expected: readonly string[], cell: string, stops: readonly number[]): Promise<void> => {
    expect(await page.getAttribute(`[data-testid=${testid}]`, 'data-rows')).to.equal(String(expected.length));
    for (const row of stops) {
      await page.$eval(`[data-testid=${testid}-scroll]`, (el, px) => { el.scrollTop = px; }, row * 30);
      await until(page, `${testid} row ${row} rendered`, async () => (await renderedRows(testid, rows)).some((r) => r.n === row)).catch(async (err: unknown) => {
        const at = await page.$eval(`[data-testid=${testid}-scroll]`, (el) => ({ scrollTop: el.scrollTop, clientHeight: el.clientHeight, scrollHeight: el.scrollHeight }));
        throw new Error(`${String(err)}; scroll element ${JSON.stringify(at)}, rows in the DOM ${JSON.stringify((await renderedRows(testid, rows)).map((r) => r.n))}`);
      });
      const inDom = await renderedRows(testid, rows, cell);
      const ns = inDom.map((r) => r.n);
      expect(ns.length, `${testid}: rows in the DOM around row ${row}`).to.be.within(10, 120);
      expect(ns, `${testid}: contiguous rows`).to.deep.equal(ns.map((_, i) => ns[0]! + i));
      expect(ns, `${testid}: row ${row} still in view`).to.include(row);
      for (const r of [inDom[0]!, inDom[ns.indexOf(row)]!, inDom[inDom.length - 1]!]) expect(r.text, `${testid} row ${r.n}`).to.equal(expected[r.n]);
    }
    const scrollHeight = await page.$eval(`[data-testid=${testid}-scroll]`, (el) => el.scrollHeight);
    expect(scrollHeight, `${testid}: scroll height of every row`).to.be.at.least(expected.length * 30);
  };

  it('queues: configure one through the form, see it listed with its filter and consumers, delete it', async () => {
    await openScreen('Queues');
    await page.waitForSelector('[data-testid=queue-form]');
    // A bad filter: the API's error under the field it names, nothing configured.
    await page.fill('[data-testid=queue-form] input[name=epc]', 'XYZ');
    await page.click('[data-testid=queue-form] button[type=submit]');
    await page.waitForSelector('[data-testid=error-epc]');
    expect((await app.request('GET', '/queues/v1/show')).body).to.deep.equal([]);

    await page.fill('[data-testid=queue-form] input[name=epc]', 'E280');
    await page.fill('[data-testid=queue-form] input[name=toZone]', 'Dock');
    await page.click('[data-testid=queue-form] button[type=submit]');
    await page.waitForSelector('[data-testid=queues-table] tbody tr');
    const listed = (await app.request('GET', '/queues/v1/show')).body as Array<{ queue: string }>;
    expect(listed).to.have.length(1);
    const queue = listed[0]!.queue;
    const row = `[data-testid=queues-table] tr[data-queue="${queue}"]`;
    expect(await page.textContent(row)).to.contain('epc=E280').and.contain('toZone=Dock');
    expect(await page.textContent(`${row} [data-testid=consumers]`)).to.equal('0');

    // A client consumes it: the list shows the consumer (refreshed by the screen itself).
    consumers.push(await consume(queue));
    await until(page, 'one consumer shown', async () => (await page.textContent(`${row} [data-testid=consumers]`)) === '1');
    await screenshot(page, '15-queues');

    await page.click(`${row} button:text("Delete")`);
    await until(page, 'row gone', async () => (await page.locator(row).count()) === 0);
    expect((await app.request('GET', '/queues/v1/show')).body).to.deep.equal([]);
  });

  it('thresholds: the readers map edited in the form (rows), diff before saving, the API\'s error on the row it names, cancel reverts', async () => {
    for (const [path, body] of [
      ['/configuration/v1/facilities/create', { name: 'Door' }],
      ['/configuration/v1/readerDefinitions/create', { name: 'door-1', facility: 'Door', type: 'XARRAY', placement: { x: 1, y: 1, z: 3, yaw: 0, pitch: 0, roll: 0, floor: null } }],
      ['/configuration/v1/readerDefinitions/create', { name: 'door-2', facility: 'Door', type: 'XARRAY', placement: { x: 3, y: 1, z: 3, yaw: 0, pitch: 0, roll: 0, floor: null } }],
      ['/configuration/v1/readerDefinitions/create', { name: 'elsewhere-1', facility: 'DEFAULT', type: 'XARRAY' }],
    ] as const) {
      const res = await app.request('POST', path, { body });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).to.equal(200);
    }
    await openScreen('Thresholds');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'Back door');
    await page.selectOption('select[name=facility]', 'Door');
    await page.selectOption('select[name=readerArrangement]', 'SIDE_BY_SIDE');
    await page.click('[data-testid=add-threshold-reader]');
    await page.click('[data-testid=add-threshold-reader]');
    // Only readers of the facility are offered; the second row took the next free one.
    const offered = await page.$$eval('select[name="readers.0.name"] option', (os) => os.map((o) => (o as unknown as { value: string }).value));
    expect(offered).to.have.members(['door-1', 'door-2']);
    expect(await page.inputValue('select[name="readers.1.name"]')).to.equal('door-2');
    await page.selectOption('select[name="readers.0.antennaConfigurationId"]', '3');
    await page.selectOption('select[name="readers.1.antennaConfigurationId"]', '4');
    const json = JSON.parse(await page.inputValue('[data-testid=resource-json]')) as { readers: unknown };
    expect(json.readers).to.deep.equal({ 'door-1': { antennaConfigurationId: 3 }, 'door-2': { antennaConfigurationId: 4 } });
    await page.click('button:text("Review and save")');
    await page.waitForSelector('[data-testid=diff]');
    expect(await page.textContent('[data-testid=diff] .add >> nth=0')).to.match(/^\+/);
    expect(await page.textContent('[data-testid=diff]')).to.contain('"door-2"');
    await screenshot(page, '16-thresholds');
    await page.click('[data-testid=confirm-save]');
    await page.waitForSelector('[data-testid=resource-list] a:text("Back door")');
    const stored = ((await app.request('GET', '/configuration/v1/thresholds/show')).body as Array<{ name: string; id: number; readers: unknown }>).find((t) => t.name === 'Back door')!;
    expect(stored.readers).to.deep.equal({ 'door-1': { antennaConfigurationId: 3 }, 'door-2': { antennaConfigurationId: 4 } });

    // Edit the stored one: remove a row, then Cancel brings it back.
    await page.click('[data-testid=resource-list] a:text("Back door")');
    await page.waitForSelector('[data-testid=threshold-reader-1]');
    await page.click('[data-testid=threshold-reader-0] button:text("Remove")');
    await until(page, 'one row left', async () => (await page.locator('[data-testid=threshold-readers] [data-testid^=threshold-reader-]').count()) === 1);
    await page.click('button:text-is("Cancel")');
    await until(page, 'both rows back', async () => (await page.locator('[data-testid=threshold-readers] [data-testid^=threshold-reader-]').count()) === 2);
    expect(JSON.parse(await page.inputValue('[data-testid=resource-json]')).readers).to.deep.equal(stored.readers);

    // A reader of another facility, chosen in the JSON beside the form: the API's error shows on its row; nothing is stored.
    const draft = JSON.parse(await page.inputValue('[data-testid=resource-json]')) as { readers: Record<string, unknown> };
    draft.readers['elsewhere-1'] = { antennaConfigurationId: 1 };
    await page.fill('[data-testid=resource-json]', JSON.stringify(draft, null, 2));
    await page.waitForSelector('[data-testid=threshold-reader-2]');
    await page.click('button:text("Review and save")');
    await page.click('[data-testid=confirm-save]');
    const rowError = await page.waitForSelector('[data-testid=threshold-reader-2] [data-testid="error-readers.elsewhere-1"]');
    expect(await rowError.textContent()).to.contain('facility');
    await screenshot(page, '16b-threshold-reader-error');
    expect(((await app.request('GET', `/configuration/v1/thresholds/show/${stored.id}`)).body as { readers: unknown }).readers).to.deep.equal(stored.readers);
    await page.click('button:text-is("Cancel")');
    await until(page, 'error and row gone', async () => (await page.locator('[data-testid=save-error]').count()) === 0 && (await page.locator('[data-testid=threshold-reader-2]').count()) === 0);
  });

  it('upgrade: register an image from a chosen file, upgrade the simulated readers, see each reader\'s progress to completion', async () => {
    // The Door readers (previous test) played by the simulator; an UPGRADE takes it 4 s.
    const options = parseOptions(['--url', app.baseUrl, '--facility', 'Door', '--tags', '5', '--seed', '3', '--checkin-seconds', '1', '--upgrade-seconds', '4', '--progress', 'none']);
    simulation = runSimulation(options, { log: silent, signal: stopSimulation.signal });
    await until(page, 'readers checked in', async () => ((await app.request('GET', '/health/v1/readers')).body as Array<{ readerName: string; lastCheckin: string | null }>).filter((r) => r.readerName.startsWith('door-') && r.lastCheckin).length === 2);

    await openScreen('Software & upgrades');
    await page.waitForSelector('[data-testid=register-image]');
    const image = Buffer.from(`octane firmware image ${'x'.repeat(5000)}`);
    const sha = createHash('sha256').update(image).digest('hex');
    await page.setInputFiles('[data-testid=register-image] input[name=file]', { name: 'octane-8.2.1.upgx', mimeType: 'application/octet-stream', buffer: image });
    await until(page, 'checksum computed', async () => (await page.inputValue('[data-testid=register-image] input[name=checksum]')) === sha);
    expect(await page.inputValue('[data-testid=register-image] input[name=imageName]')).to.equal('octane-8.2.1.upgx');
    expect(await page.inputValue('[data-testid=register-image] input[name=version]')).to.equal('8.2.1');
    // The page's own SHA-256 (used where WebCrypto is missing: plain http off localhost) agrees too.
    const pure = await page.evaluate(async (bytes) => {
      const { sha256Hex } = (await import(new URL('sha256.js', (globalThis as unknown as { location: { href: string } }).location.href).toString())) as { sha256Hex(b: Uint8Array): string };
      return [sha256Hex(new Uint8Array(bytes)), sha256Hex(new Uint8Array(0)), sha256Hex(new Uint8Array(64).fill(97))];
    }, [...image]);
    expect(pure).to.deep.equal([sha, createHash('sha256').digest('hex'), createHash('sha256').update(Buffer.alloc(64, 97)).digest('hex')]);
    await page.fill('[data-testid=register-image] input[name=description]', 'Octane 8.2.1');
    await page.click('[data-testid=register-image] button[type=submit]');
    await page.waitForSelector('[data-testid=images] td:text-is("8.2.1")');

    await page.selectOption('[data-testid=upgrade-start] select[name=targetType]', 'DEVICE');
    await page.check('[data-testid=upgrade-readers] input[name=reader-door-1]');
    await page.check('[data-testid=upgrade-readers] input[name=reader-door-2]');
    await page.fill('[data-testid=upgrade-start] input[name=maxParallelReaders]', '1');
    expect(await page.inputValue('[data-testid=upgrade-start] select[name=image]')).to.equal('FIRMWARE_READER|8.2.1');
    await page.click('[data-testid=upgrade-start] button[type=submit]');
    await page.waitForSelector('[data-testid=upgrade]');
    // One reader at a time: the page shows one upgrading while the other waits, then both completed.
    const seen = new Set<string>();
    await until(page, 'upgrade COMPLETED', async () => {
      const rows = await page.$$eval('[data-testid=upgrade] tr[data-reader]', (trs) => trs.map((tr) => `${tr.getAttribute('data-reader')}:${tr.querySelector('.pill')?.textContent ?? ''}`));
      rows.forEach((r) => seen.add(r));
      if (rows.some((r) => r.endsWith('IN_PROGRESS')) && !seen.has('screenshot')) {
        seen.add('screenshot');
        await screenshot(page, '14-upgrade-in-progress');
      }
      return (await page.getAttribute('[data-testid=upgrade]', 'data-status')) === 'COMPLETED';
    }, 120_000);
    expect([...seen], 'a reader seen upgrading').to.satisfy((xs: string[]) => xs.some((x) => x.endsWith(':IN_PROGRESS')));
    expect(await page.textContent('[data-testid=upgrade-progress]')).to.equal('2 of 2 readers finished');
    expect(await page.$$eval('[data-testid=upgrade] tr[data-reader] .pill', (ps) => ps.map((p) => p.textContent))).to.deep.equal(['COMPLETED', 'COMPLETED']);
    await screenshot(page, '14-software');
    const upgrades = (await app.request('GET', '/control/v1/upgrades/show')).body as Array<{ id: string }>;
    expect((await app.request('GET', `/control/v1/upgrades/show/${upgrades[0]!.id}`)).body.status).to.equal('COMPLETED');
  });

  it('virtualised rows: the items table holds 12,000 items, a page of 10,000 keeps a bounded number of rows in the DOM, and scrolling shows the right ones', async () => {
    const ITEMS = 12_000;
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      await appendChanges(client, changes('Many', 'E2C0', 0, ITEMS, 'FIRST_SEEN', Date.now(), (n) => ({ x: n % 40, y: Math.floor(n / 40) % 40 })));
    } finally {
      await client.dispose();
    }
    await projected(app, 'Many', epc('E2C0', ITEMS - 1), 180_000);
    // What the server answers for the first 10,000, in its order: the rows the table must show.
    const expected: string[] = [];
    let marker: string | undefined;
    while (expected.length < 10_000) {
      const res = (await app.request('GET', `/data/v1/items/show?facility=Many&pageSize=1000${marker ? `&pageMarker=${encodeURIComponent(marker)}` : ''}`)).body as { items: Array<{ epc: string }>; nextPageMarker?: string | null };
      expected.push(...res.items.map((i) => i.epc));
      marker = res.nextPageMarker ?? undefined;
    }

    await openScreen('Items');
    await page.selectOption('select[name=facility]', 'Many');
    await page.selectOption('select[name=pageSize]', '10000');
    await page.click('button:text("Apply")');
    await page.waitForSelector('[data-testid=items-page-info]:text("10000 items on this page")');
    await expectWindowed('items-table', 'tbody tr', expected, 'td:first-child', [0, 37, 5_000, 9_999, 2_500]);
    await screenshot(page, '04b-items-10000');
    // The next page holds the remaining 2,000, from the top.
    await page.click('button:text("Next")');
    await page.waitForSelector('[data-testid=items-page-info]:text("2000 items on this page")');
    await until(page, 'scrolled back to the top', async () => (await renderedRows('items-table', 'tbody tr'))[0]?.n === 0);
    expect(await page.textContent('[data-testid=items-table] tr[data-row="0"] td:first-child')).not.to.equal(expected[0]);
  });
  it('virtualised rows: the health events table holds 3,000 events of one reader in one page and shows the right ones where scrolled', async () => {
    const EVENTS = 3_000;
    const reader = 'virt-reader';
    const t0 = Date.now() - EVENTS * 1000;
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      for (let from = 0; from < EVENTS; from += 500) {
        const batch = Array.from({ length: 500 }, (_, k) => encodeEvent(healthEvents, {
          type: 'HealthEventReported',
          data: { readerName: reader, eventTime: new Date(t0 + (from + k) * 1000).toISOString(), type: 'THROUGHPUT', code: 'DROPPED_READ', args: { n: from + k } },
        }));
        await client.appendToStream(healthStream(reader), batch);
      }
      // Another reader's events, older than all of these: the first of an unfiltered page.
      await client.appendToStream(healthStream(`${reader}-older`), Array.from({ length: 5 }, (_, k) => encodeEvent(healthEvents, {
        type: 'HealthEventReported',
        data: { readerName: `${reader}-older`, eventTime: new Date(t0 - (10 - k) * 1000).toISOString(), type: 'THROUGHPUT', code: 'DROPPED_READ', args: { n: k } },
      })));
    } finally {
      await client.dispose();
    }
    // The server's order of this reader's events: the rows the table must show (their args, in the Details column).
    const allEvents = async (): Promise<string[]> => {
      const out: string[] = [];
      let marker: string | undefined;
      do {
        const res = (await app.request('POST', '/health/v1/events', { body: { readerNames: [reader], pageSize: 1000, newestFirst: true, ...(marker ? { nextPageMarker: marker } : {}) } })).body as { events: Array<{ args: unknown }>; nextPageMarker?: string | null };
        out.push(...res.events.map((e) => JSON.stringify(e.args)));
        marker = res.nextPageMarker ?? undefined;
      } while (marker !== undefined);
      return out;
    };
    const expected = await waitForValue(`${EVENTS} health events projected`, allEvents, (list) => list.length === EVENTS, { timeoutMs: 60_000, intervalMs: 250 });

    // Opening the screen loads every reader's events; Apply loads this reader's. Holding back the first answer makes
    // the older load end last, and it must not replace the newer one.
    const unfiltered = (r: { postData(): string | null }): boolean => !(JSON.parse(r.postData() ?? '{}') as { readerNames?: unknown }).readerNames;
    await page.route('**/health/v1/events', async (route) => {
      if (unfiltered(route.request())) await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    const lateAnswer = page.waitForResponse((r) => r.url().endsWith('/health/v1/events') && unfiltered(r.request()));
    await openScreen('Reader health');
    await page.fill('input[placeholder="comma-separated"] >> nth=0', reader);
    await page.click('button:text("Apply")');
    await until(page, '100 events of the reader in the table', async () => (await page.getAttribute('[data-testid=health-events]', 'data-rows')) === '100');
    await lateAnswer;
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))'); // two frames: the late answer rendered, were it kept
    expect(await page.$$eval('[data-testid=health-events] tbody tr[data-row] td:nth-child(2)', (tds) => [...new Set(tds.map((td) => td.textContent))])).to.deep.equal([reader]);
    await page.unroute('**/health/v1/events');

    await page.selectOption('select[name=pageSize]', '10000');
    await until(page, `${EVENTS} health events in the table`, async () => (await page.getAttribute('[data-testid=health-events]', 'data-rows')) === String(EVENTS));
    await expectWindowed('health-events', 'tbody tr', expected, 'td:last-child', [0, 41, 1_500, 2_999, 700]);
    await screenshot(page, '13b-health-events-3000');
  });

  it('reader health: the temperature a reader reports at check-in, and a dash for one that never did', async () => {
    const [hot, silentReader] = ['temp-reader', 'temp-silent'];
    for (const name of [hot, silentReader]) {
      expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT' } })).status).to.equal(200);
      const secret = (await app.request('PUT', `/agent/v1/readers/${name}/secret`)).body.secret as string;
      const checkin = { agentId: `agent-${name}`, versions: { App: '2.0.0', Firmware: '7.6.1' }, state: 'IDLE', ...(name === hot ? { temperatureCelsius: 47.5 } : {}) };
      expect((await app.request('POST', `/agent/v1/readers/${name}/checkin`, { body: checkin, auth: agentAuthorization(name, secret) })).status).to.equal(200);
    }
    await openScreen('Reader health');
    const cell = (name: string): string => `[data-testid=reader-health] tr:has(td:text-is("${name}")) [data-testid=temperature]`;
    await until(page, 'both readers in the health table', async () => (await page.locator(cell(hot)).count()) === 1 && (await page.locator(cell(silentReader)).count()) === 1);
    expect((await page.textContent(cell(hot)))?.trim()).to.match(/^47\.5 °C/);
    expect((await page.textContent(cell(silentReader)))?.trim()).to.equal('–');
  });

  it('virtualised rows: an item\'s history timeline of 2,500 records keeps a screenful in the DOM, newest first', async () => {
    const RECORDS = 2_500;
    const item = epc('E2D0', 1);
    const t0 = Date.now() - RECORDS * 1000;
    const zone = (n: number): string => (n < 0 ? 'ABSENT' : `Z${n}`);
    const records: Change[] = Array.from({ length: RECORDS }, (_, n) => ({
      kind: n === 0 ? 'FIRST_SEEN' : 'ZONE_CHANGE', epc: item, tid: null, jobId: 'virt-job', fromZone: zone(n - 1), toZone: zone(n),
      fromFloor: null, toFloor: '1', fromFacility: n === 0 ? null : 'Long', toFacility: 'Long',
      fromX: null, fromY: null, toX: n % 40, toY: 1, observationTime: t0 + n * 1000,
      reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: false,
    }));
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      await appendChanges(client, records);
    } finally {
      await client.dispose();
    }
    await waitForValue('the item\'s history projected', async () => (await app.request('GET', `/data/v1/items/show/history?epcPrefix=${item}&toZone=${zone(RECORDS - 1)}`)).body?.history?.length, (n) => n === 1, { timeoutMs: 60_000, intervalMs: 250 });
    // Newest first: the zone each record went to.
    const expected = records.map((r) => r.toZone).reverse();
    await page.goto(`${consoleUrl}#/item/${item}`);
    await until(page, `${RECORDS} history records`, async () => (await page.getAttribute('[data-testid=item-history]', 'data-rows').catch(() => null)) === String(RECORDS));
    await expectWindowed('item-history', 'li', expected, 'strong', [0, 23, 1_250, 2_499, 600]);
    await screenshot(page, '11b-item-history-2500');
  });
});
