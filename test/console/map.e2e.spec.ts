// The floor map and door passages in a real browser (Debian's Chromium
// through playwright-core) against the whole service: INVENTORY items spread
// around their reader in count badges that come apart on zoom, LOCATION items
// at their estimates, dots opened by a real click and by the keyboard, EPC
// search, legend and scale, a door with its IN and OUT sides and passages
// crossing it live, pinch zoom; the door passages screen (filters, CSV, live),
// a THRESHOLD job's passages, passages in an item's history; and an
// operator's morning from the login to an item followed from a passage.
// Items and passages are appended to the engine's stream as the engine
// writes them. Screenshots go to test-artifacts/console/.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { EventStoreDBClient } from '@eventstore/db-client';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, logOut, screenshot, until, type TestBrowser } from '../support/browser';
import { waitForValue } from '../support/wait';
import { appendChanges, changes, epc, projected, type Change } from './item-fixtures';
import { appendPassages } from './passage-fixtures';
import { closeInOrder, expectNoPageErrors } from './teardown';

const FACILITY = 'Shop';
const INVENTORY_ITEMS = 29;
const READER = { x: 4, y: 4 };
const located = [{ x: 11, y: 2 }, { x: 12.5, y: 5 }, { x: 14, y: 3.2 }, { x: 13, y: 7 }, { x: 11.5, y: 6.5 }, { x: 15, y: 1.5 }];

const inZone = (cs: Change[], zone: string, jobId: string): Change[] => cs.map((c) => ({ ...c, toZone: zone, fromZone: 'ABSENT', jobId, reportToHistoryEnabled: true }));

describe('console floor map and door passages in Chromium', function () {
  this.timeout(240_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;
  let door: { id: number; name: string; facility: string };
  let doorJob: string;
  const t0 = Date.now() - 60_000;
  const invEpc = (n: number): string => epc('E2C1', n);
  const locEpc = (n: number): string => epc('E2C2', n);

  const post = async (path: string, body: unknown, method: 'POST' | 'PUT' = 'POST'): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await app.request(method, path, { body });
    expect(res.status, `${path} ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body;
  };
  const mapUrl = (query = ''): string => `${consoleUrl}#/map?facility=${FACILITY}${query}`;
  const mapState = async (): Promise<{ dots: number; badges: number[]; pxPerM: number }> => page.$eval('[data-testid=floor-map] > svg', (el) => ({
    dots: el.querySelectorAll('circle.item').length,
    badges: [...el.querySelectorAll('[data-cluster]')].map((b) => Number(b.getAttribute('data-cluster'))),
    pxPerM: Number(el.parentElement?.getAttribute('data-px-per-m')),
  }));
  /** The map opened afresh (by way of another screen: a hash change alone would keep its view and search). */
  const openMap = async (query = ''): Promise<void> => {
    await page.goto(`${consoleUrl}#/overview`);
    await page.waitForSelector('h1:text-is("Overview")');
    await page.goto(mapUrl(query));
    await page.waitForSelector(`[data-testid=floor-map][data-items="${INVENTORY_ITEMS + located.length}"]`);
  };

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    consoleUrl = new URL('/console/', app.baseUrl).toString();
    // A shop: the sales floor with an INVENTORY reader, the back room with LOCATION estimates, a door on its far wall.
    await post('/configuration/v1/facilities/create', { name: FACILITY });
    await post('/configuration/v1/zoneMaps/create', { name: 'shop-floor', facility: FACILITY, zones: [
      { name: 'Sales', floor: '1', points: [{ x: 0, y: 0 }, { x: 10, y: 8 }] },
      { name: 'Back', floor: '1', points: [{ x: 10, y: 0 }, { x: 16, y: 8 }] },
    ] });
    const select = await app.request('POST', `/control/v1/currentZoneMap/select/shop-floor`);
    expect(select.status, JSON.stringify(select.body)).to.be.oneOf([200, 204]);
    const placement = (x: number, y: number): object => ({ x, y, z: 3, yaw: 0, pitch: 0, roll: 0, floor: 1 });
    await post('/configuration/v1/readerDefinitions/create', { name: 'inv-1', facility: FACILITY, type: 'XARRAY', placement: placement(READER.x, READER.y) });
    await post('/configuration/v1/readerDefinitions/create', { name: 'door-a', facility: FACILITY, type: 'XSPAN', placement: placement(16, 3) });
    await post('/configuration/v1/readerDefinitions/create', { name: 'door-b', facility: FACILITY, type: 'XSPAN', placement: placement(16, 6) });
    const antennas = await post('/configuration/v1/thresholds/antennaConfiguration', { name: 'door sides', side: 'LEFT', readerType: 'XSPAN', readerArrangement: 'SIDE_BY_SIDE', in: [{ antennaId: 1 }], out: [{ antennaId: 2 }] });
    const threshold = await post('/configuration/v1/thresholds/create', { name: 'Back door', facility: FACILITY, readerArrangement: 'SIDE_BY_SIDE', readers: { 'door-a': { antennaConfigurationId: antennas.id }, 'door-b': { antennaConfigurationId: antennas.id } } });
    door = { id: threshold.id, name: threshold.name, facility: FACILITY };
    // A THRESHOLD job on the door (waiting an hour: its readers are not needed, its passages are appended below).
    await post('/configuration/v1/readerConfigurations/create', { name: 'door-rc', operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2 } });
    await post('/configuration/v1/recipes/create', { name: 'door-recipe', type: 'THRESHOLD', readerConfigurationName: 'door-rc', thresholdIds: [door.id] });
    doorJob = (await post('/control/v1/jobs/start', { recipeName: 'door-recipe', facility: FACILITY, name: 'back door watch', startDelay: 'PT1H' })).id;

    // An INVENTORY job places every item at its reader; a LOCATION job at each item's own estimate.
    await appendChanges(client, inZone(changes(FACILITY, 'E2C1', 0, INVENTORY_ITEMS, 'FIRST_SEEN', t0, () => READER), 'Sales', 'inv-job'));
    await appendChanges(client, inZone(changes(FACILITY, 'E2C2', 0, located.length, 'FIRST_SEEN', t0, (n) => located[n]!), 'Back', 'loc-job'));
    await projected(app, FACILITY, locEpc(located.length - 1), 30_000);
    await projected(app, FACILITY, invEpc(INVENTORY_ITEMS - 1), 30_000);
    await appendPassages(client, door, doorJob, [
      { epc: locEpc(0), destination: 'IN', at: t0 + 1_000 },
      { epc: locEpc(1), destination: 'OUT', at: t0 + 2_000 },
      { epc: invEpc(3), destination: 'IN', at: t0 + 3_000 },
    ]);
    await waitForValue('three passages in the transitions query', async () => (await app.request('GET', `/data/v1/items/show/transitions?jobId=${doorJob}`)).body?.transitions?.length, (n) => n === 3, { retryErrors: true });

    browser = await launchBrowser({ width: 1440, height: 900 });
    page = await browser.newPage();
    await logIn(page, consoleUrl, 'admin', 'admindefault');
  });
  after(() => closeInOrder(browser, client, app));
  afterEach(() => expectNoPageErrors(browser));

  it('INVENTORY items are spread around their reader in count badges that come apart on zoom; LOCATION items sit at their estimates', async () => {
    await openMap();
    const fitted = await mapState();
    const shown = (s: { dots: number; badges: number[] }): number => s.dots + s.badges.reduce((a, b) => a + b, 0);
    expect(shown(fitted), 'every item is a dot or counted in a badge').to.equal(INVENTORY_ITEMS + located.length);
    // Each LOCATION item is drawn at its own estimate.
    for (const [n, p] of located.entries()) {
      const c = await page.$eval(`[data-testid=floor-map] circle[data-epc="${locEpc(n)}"]`, (el) => [Number(el.getAttribute('cx')), Number(el.getAttribute('cy'))]);
      expect(c, locEpc(n)).to.deep.equal([p.x, -p.y]);
    }
    await screenshot(page, '02b-floor-map-inventory');

    // Zoomed out, items close together become count badges, all still counted; a badge clicked zooms in on it.
    const map = page.locator('[data-testid=floor-map] > svg');
    await map.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('-');
    const far = await mapState();
    expect(far.badges.length, 'badges once zoomed out').to.be.greaterThan(0);
    expect(shown(far)).to.equal(INVENTORY_ITEMS + located.length);
    await screenshot(page, '02c-floor-map-badges');
    await page.click('[data-testid=floor-map] [data-cluster]');
    await until(page, 'the map zoomed in on the badge', async () => (await mapState()).pxPerM > far.pxPerM * 2);
    // Zoomed in far enough, all 29 come apart as dots, none on the reader's point.
    for (let i = 0; i < 6 && (await mapState()).badges.length > 0; i++) await page.keyboard.press('+');
    const near = await mapState();
    expect(near.badges, 'no badge once zoomed in').to.deep.equal([]);
    const spread = await page.$$eval('[data-testid=floor-map] > svg circle.item[data-epc^="E2C1"]', (els) => els.map((el) => ({ x: Number(el.getAttribute('cx')), y: Number(el.getAttribute('cy')) })));
    expect(spread.length).to.equal(INVENTORY_ITEMS);
    for (const { x, y } of spread) expect(Math.hypot(x - READER.x, -y - READER.y), 'distance from the reader').to.be.at.least(0.5);
    expect(new Set(spread.map(({ x, y }) => `${x.toFixed(2)},${y.toFixed(2)}`)).size, 'every dot at its own place').to.equal(INVENTORY_ITEMS);

  });

  it('a dot opens its item with a real mouse click and with Enter from the keyboard', async () => {
    await openMap();
    const dot = page.locator(`[data-testid=floor-map] circle[data-epc="${locEpc(2)}"]`);
    // Dots glide to new positions and the map fits itself once loaded: the mouse goes where the dot has
    // come to rest (the same box twice, 150 ms apart), as a person's would.
    const restingBox = async (): Promise<{ x: number; y: number; width: number; height: number }> => {
      let last = await dot.boundingBox();
      for (let i = 0; i < 40; i++) {
        await page.waitForTimeout(150);
        const now = await dot.boundingBox();
        if (now !== null && last !== null && now.x === last.x && now.y === last.y) return now;
        last = now;
      }
      throw new Error(`the dot of ${locEpc(2)} never came to rest: ${JSON.stringify(last)}`);
    };
    const box = await restingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await until(page, 'the item page of the clicked dot', async () => decodeURIComponent(new URL(page.url()).hash) === `#/item/${locEpc(2)}`);
    await page.waitForSelector('[data-testid=item-now]');

    // Keyboard only: Tab from the map reaches a dot or a badge; Enter on a dot opens its item.
    await openMap();
    await page.locator('[data-testid=floor-map] > svg').focus();
    let focused: { epc: string | null; cluster: string | null } = { epc: null, cluster: null };
    for (let i = 0; i < 40 && !focused.epc; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate('({ epc: document.activeElement?.getAttribute("data-epc") ?? null, cluster: document.activeElement?.getAttribute("data-cluster") ?? null })') as typeof focused;
    }
    expect(focused.epc, 'a dot reached with Tab').to.be.a('string');
    await page.keyboard.press('Enter');
    await until(page, 'the item page of the focused dot', async () => decodeURIComponent(new URL(page.url()).hash) === `#/item/${focused.epc}`);
  });

  it('EPC search rings the item and centres the map on it, zoomed in from far out where it was in a badge', async () => {
    await openMap();
    await page.locator('[data-testid=floor-map] > svg').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('-');
    const wanted = invEpc(17);
    expect(await page.locator(`[data-testid=floor-map] > svg circle.item[data-epc="${wanted}"]`).count(), 'in a badge, not a dot of its own').to.equal(0);
    await page.fill('[data-testid=map-search]', wanted.slice(-5).toLowerCase());
    await page.click('button:text-is("Find")');
    await page.waitForSelector(`[data-testid=map-focus][data-epc-focus="${wanted}"]`);
    const mapBox = (await page.locator('[data-testid=floor-map]').boundingBox())!;
    await until(page, 'the ring at the middle of the map', async () => {
      const ring = (await page.locator('[data-testid=map-focus]').boundingBox())!;
      return Math.abs(ring.x + ring.width / 2 - (mapBox.x + mapBox.width / 2)) < 20 && Math.abs(ring.y + ring.height / 2 - (mapBox.y + mapBox.height / 2)) < 20;
    }, 10_000);
    expect(await page.textContent('[data-testid=map-found]')).to.contain('Sales');
    expect((await mapState()).pxPerM, 'zoomed in enough to part the badge').to.be.at.least(119);
    await screenshot(page, '02d-floor-map-search');
    // Ambiguous or unknown: said so, nothing ringed.
    await page.fill('[data-testid=map-search]', 'E2C1');
    await page.click('button:text-is("Find")');
    expect(await page.textContent('[data-testid=map-search-note]')).to.contain(`${INVENTORY_ITEMS} items on this map match`);
    await page.fill('[data-testid=map-search]', 'FFFFFF');
    await page.click('button:text-is("Find")');
    expect(await page.textContent('[data-testid=map-search-note]')).to.contain('No item on this map matches');
  });

  it('a legend, and a scale bar whose length matches the zoom', async () => {
    await openMap();
    expect(await page.textContent('[data-testid=map-legend]')).to.contain('door: IN side');
    const check = async (): Promise<void> => {
      const metres = Number(await page.getAttribute('[data-testid=map-scale]', 'data-metres'));
      const barPx = (await page.locator('[data-testid=map-scale] span').boundingBox())!.width;
      const pxPerM = (await mapState()).pxPerM;
      expect(barPx / metres, 'bar pixels per metre').to.be.closeTo(pxPerM, pxPerM * 0.05);
    };
    await check();
    await page.locator('[data-testid=floor-map] > svg').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await check();
  });

  it('pinching with two fingers zooms the map', async () => {
    await openMap();
    const box = (await page.locator('[data-testid=floor-map]').boundingBox())!;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const before = (await mapState()).pxPerM;
    const cdp = await page.context().newCDPSession(page);
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number): Promise<void> => {
      await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }] });
    };
    await touch('touchStart', 40);
    for (const s of [60, 90, 120, 160]) await touch('touchMove', s);
    await touch('touchEnd', 0);
    await cdp.detach();
    const after = (await mapState()).pxPerM;
    expect(after / before, 'fingers four times as far apart').to.be.closeTo(4, 0.4);
  });

  it('the door is drawn with its IN side towards the floor and its OUT side outside; a passage crosses it live and opens its item', async () => {
    await openMap();
    const doorSel = '[data-testid=map-door][data-door="Back door"]';
    await page.waitForSelector(doorSel);
    // The door runs along x = 16 (its two readers); the zones lie at x < 16, so IN is drawn left of it, OUT right.
    const label = async (text: string): Promise<number> => page.$eval(`${doorSel} text.door-label:text-is("${text}")`, (el) => Number(el.getAttribute('x')));
    expect(await label('IN')).to.be.below(16);
    expect(await label('OUT')).to.be.above(16);
    await appendPassages(client, door, doorJob, [{ epc: locEpc(4), destination: 'OUT', at: Date.now() }]);
    const passage = `[data-testid=floor-map] [data-passage=OUT][data-epc="${locEpc(4)}"]`;
    await page.waitForSelector(passage);
    await screenshot(page, '02e-floor-map-door-passage');
    await page.click(passage);
    await until(page, 'the item page of the passage', async () => decodeURIComponent(new URL(page.url()).hash) === `#/item/${locEpc(4)}`);
  });

  it('door passages screen: the query\'s filters, CSV download, and passages as they happen', async () => {
    await page.goto(`${consoleUrl}#/transitions`);
    await page.click('nav.side a:text-is("Door passages")');
    await page.waitForSelector('[data-testid=transitions-table] tr[data-row="0"]');
    const rows = async (): Promise<string[]> => page.$$eval('[data-testid=transitions-table] tr[data-row]', (els) => els.map((el) => el.textContent ?? ''));
    expect((await rows()).length).to.equal(4);
    await page.selectOption('[data-testid=transitions-filters] select[name=destination]', 'OUT');
    await page.fill('[data-testid=transitions-filters] input[name=threshold]', 'Back door');
    await page.click('[data-testid=transitions-filters] button:text-is("Apply")');
    await until(page, 'only OUT passages listed', async () => (await rows()).length === 2);
    for (const r of await rows()) expect(r).to.contain('OUT').and.to.contain('Back door');
    const download = page.waitForEvent('download');
    await page.click('button:text-is("Download CSV")');
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8').trim().split('\n');
    expect(csv[0]).to.equal('creationTime,epc,destination,thresholdId,thresholdName,jobId,confidence,transitionId');
    expect(csv.slice(1).map((l) => l.split(',')[2])).to.deep.equal(['OUT', 'OUT']);
    // Live: a passage matching the filter shows up at once; one that does not match stays out.
    await appendPassages(client, door, doorJob, [{ epc: locEpc(5), destination: 'OUT', at: Date.now() }, { epc: locEpc(3), destination: 'IN', at: Date.now() }]);
    await page.waitForSelector(`[data-testid=transitions-live] li[data-epc="${locEpc(5)}"]`);
    expect(await page.locator(`[data-testid=transitions-live] li[data-epc="${locEpc(3)}"]`).count()).to.equal(0);
    await screenshot(page, '21-door-passages');
  });

  it('a THRESHOLD job\'s page counts its passages IN and OUT and lists the latest, live', async () => {
    await page.goto(`${consoleUrl}#/jobs?job=${doorJob}`);
    await page.waitForSelector('[data-testid=job-passages]');
    const counts = async (): Promise<[string, string]> => [(await page.textContent('[data-testid=job-passages-in]')) ?? '', (await page.textContent('[data-testid=job-passages-out]')) ?? ''];
    const fromQuery = (await app.request('GET', `/data/v1/items/show/transitions?jobId=${doorJob}&pageSize=1000`)).body.transitions as Array<{ destination: string; epc: string }>;
    const inCount = fromQuery.filter((t) => t.destination === 'IN').length;
    const outCount = fromQuery.length - inCount;
    expect(await counts()).to.deep.equal([`IN ${inCount}`, `OUT ${outCount}`]);
    expect(await page.$$eval('[data-testid=job-passages-latest] li', (els) => els.map((el) => el.getAttribute('data-epc'))))
      .to.deep.equal(fromQuery.map((t) => t.epc).reverse());
    await appendPassages(client, door, doorJob, [{ epc: invEpc(8), destination: 'IN', at: Date.now() }]);
    await until(page, 'the new passage counted', async () => (await counts())[0] === `IN ${inCount + 1}`);
    expect(await page.getAttribute('[data-testid=job-passages-latest] li:first-child', 'data-epc')).to.equal(invEpc(8));
    await screenshot(page, '10c-job-passages');
  });

  it('an item\'s history has its door passages among its zone changes, by time, the door on its path\'s map, and a way to the item on the floor map', async () => {
    await page.goto(`${consoleUrl}#/item/${locEpc(1)}`);
    await page.waitForSelector('[data-testid=item-history] li.passage-record');
    const lines = await page.$$eval('[data-testid=item-history] li[data-row]', (els) => els.map((el) => el.textContent ?? ''));
    // Newest first: the passage (t0 + 2 s) above the first sighting (t0).
    expect(lines.length).to.equal(2);
    expect(lines[0]).to.contain('OUT').and.to.contain('Back door');
    expect(lines[1]).to.contain('Back');
    // The door it went through is drawn on its path's map; from here the floor map opens on the item.
    await page.waitForSelector('[data-testid=item-map] [data-testid=map-door][data-door="Back door"]');
    await screenshot(page, '11c-item-history-passage');
    await page.click('[data-testid=item-on-map]');
    await page.waitForSelector(`[data-testid=floor-map] [data-testid=map-focus][data-epc-focus="${locEpc(1)}"]`);
  });

  it('an operator\'s morning: log in, the INVENTORY floor, an item found by EPC, a door passage followed to its item', async () => {
    await logOut(page);
    await logIn(page, consoleUrl, 'admin', 'admindefault');
    await page.click('nav.side a:text-is("Floor map")');
    await page.selectOption('[data-testid=map-facility]', FACILITY);
    await page.waitForSelector(`[data-testid=floor-map][data-items="${INVENTORY_ITEMS + located.length}"]`);
    const inventoryDots = await page.$$eval('[data-testid=floor-map] > svg circle.item[data-epc^="E2C1"]', (els) => els.length);
    expect(inventoryDots, 'the INVENTORY items drawn around their reader, each on its own').to.equal(INVENTORY_ITEMS);
    const wanted = invEpc(22);
    await page.fill('[data-testid=map-search]', wanted);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid=map-focus][data-epc-focus="${wanted}"]`);
    await page.click('[data-testid=map-found] a');
    await page.waitForSelector('[data-testid=item-now]');
    expect(await page.textContent('[data-testid=item-now]')).to.contain('Sales');
    // Then the door: the passages of the morning, one followed to its item.
    await page.click('nav.side a:text-is("Door passages")');
    await page.waitForSelector('[data-testid=transitions-table] tr[data-row="0"]');
    await page.click(`[data-testid=transitions-table] tr:has-text("${invEpc(3)}")`);
    await page.waitForSelector('[data-testid=item-history] li.passage-record');
    expect(decodeURIComponent(new URL(page.url()).hash)).to.equal(`#/item/${invEpc(3)}`);
    expect(await page.textContent('[data-testid=item-history] li.passage-record')).to.contain('IN').and.to.contain('Back door');
  });

  it('on a phone (390 x 844) the map, its search and its legend fit the screen', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      const p = await phone.newPage();
      await logIn(p, consoleUrl, 'admin', 'admindefault');
      await p.goto(mapUrl());
      await p.waitForSelector(`[data-testid=floor-map][data-items="${INVENTORY_ITEMS + located.length}"]`);
      const width = await p.evaluate('document.documentElement.scrollWidth') as number;
      const mapBox = (await p.locator('[data-testid=floor-map]').boundingBox())!;
      expect(mapBox.x + mapBox.width, 'the map inside the screen').to.be.at.most(391);
      expect(width, 'no sideways scrolling').to.be.at.most(390);
      expect(await p.getAttribute('[data-testid=map-legend]', 'open'), 'the legend folded, not over the floor').to.equal(null);
      await p.locator('[data-testid=floor-map]').scrollIntoViewIfNeeded();
      await screenshot(p, '02f-floor-map-phone');
      expect(phone.pageErrors).to.deep.equal([]);
    } finally {
      await phone.close();
    }
  });
});
