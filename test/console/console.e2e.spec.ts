// The web console in a real browser (Debian's Chromium through
// playwright-core) against the whole service, doing the README's demo
// through the console alone: log in, build a facility, a zone map drawn on
// the map, two readers in a group placed by dragging and typing, reader
// configurations and the LOCATION and INVENTORY recipes through the forms;
// start a job on the group and run the reader simulator; watch items appear
// and move on the floor map; open an item's history; replay the floor at an
// earlier time; stop the job; see the readers NOT_RESPONDING once the
// simulator ends; a DataReader sees no configuration forms. Screenshots of each screen go to
// test-artifacts/console/. One flow, in order: each step needs the last.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation, type Summary } from '../../src/simulator/run';
import { silent } from '../support/logger';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, logOut, screenshot, until, type TestBrowser } from '../support/browser';

async function openKind(page: Page, label: string): Promise<void> {
  await page.click(`nav.side a:text-is("${label}")`);
  await page.waitForSelector('[data-testid=new-resource]');
}

/** New resource, fields by name, review the diff, save; waits for it in the list. */
async function createResource(page: Page, label: string, fill: (page: Page) => Promise<void>, name: string): Promise<void> {
  await openKind(page, label);
  await page.click('[data-testid=new-resource]');
  await fill(page);
  await saveResource(page);
  await page.waitForSelector(`[data-testid=resource-list] a:text-is("${name}")`);
}

async function saveResource(page: Page): Promise<void> {
  await page.click('button:text("Review and save")');
  await page.waitForSelector('[data-testid=diff]');
  await page.click('[data-testid=confirm-save]');
}

async function mapItemCount(page: Page, testid = 'floor-map'): Promise<number> {
  return Number(await page.getAttribute(`[data-testid=${testid}]`, 'data-items'));
}

describe('web console in Chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;
  let simulation: Promise<Summary> | undefined;
  let jobStartedAt = 0;
  let firstItemsAt = 0;

  before(async function () {
    if (!chromiumPresent()) {
      // CI installs it (.ci/run through scripts/ensure-services.sh); say why rather than fail obscurely.
      throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    }
    // Check-ins every 2 s: readers the simulator stops playing are NOT_RESPONDING 6 s later, as in the README's demo.
    app = await startTestApp({ JOB_STOP_TIMEOUT_SECONDS: '1', HEALTH_CHECKIN_INTERVAL_SECONDS: '2' });
    consoleUrl = new URL('/console/', app.baseUrl).toString();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await simulation?.catch(() => undefined);
    await browser?.close();
    await app?.stop();
  });
  afterEach(function () {
    expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
  });

  it('is linked from / and shows the login form fast; admin logs in and is warned about the default password', async () => {
    await page.goto(new URL('/', app.baseUrl).toString());
    await page.click('a:text("Web console")');
    await page.waitForSelector('input[name=username]:enabled');
    const interactiveMs = await page.evaluate(() => performance.now());
    console.log(`      [perf] first screen interactive (login form, from navigation start): ${Math.round(interactiveMs)} ms (budget 1000 ms)`);
    await screenshot(page, '01-login');
    await page.fill('input[name=username]', 'admin');
    await page.fill('input[name=password]', 'wrong');
    await page.click('button[type=submit]');
    await page.waitForSelector('[role=alert]:text("Unknown user or wrong password")');
    const t0 = Date.now();
    await logIn(page, consoleUrl, 'admin', 'admindefault');
    await page.waitForSelector('[data-testid=dependencies] td:text("eventStore")');
    console.log(`      [perf] overview with service health after login: ${Date.now() - t0} ms`);
    await page.waitForSelector('[data-testid=default-password]');
    expect(await page.textContent('[data-testid=whoami]')).to.contain('admin');
  });

  it('creates a facility, a zone map drawn on the map (overlap shown first) and makes it current', async () => {
    await createResource(page, 'Facilities', async (p) => p.fill('input[name=name]', 'Store'), 'Store');

    await openKind(page, 'Zone maps');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'store-floor');
    await page.selectOption('select[name=facility]', 'Store');
    await page.locator('[data-testid=zone-map-editor]').scrollIntoViewIfNeeded();
    const box = (await page.locator('[data-testid=zone-map-editor] svg').boundingBox())!;
    const drag = async (x0: number, y0: number, x1: number, y1: number): Promise<void> => {
      await page.mouse.move(box.x + x0, box.y + y0);
      await page.mouse.down();
      await page.mouse.move(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2);
      await page.mouse.move(box.x + x1, box.y + y1);
      await page.mouse.up();
    };
    await drag(60, 60, 300, 300);
    await page.waitForSelector('[data-testid=zone-name-0]');
    // The second rectangle shares the first one's edge region partly: overlap, shown before saving.
    await drag(250, 60, 500, 300);
    await page.waitForSelector('[data-testid=overlap-warning]');
    await screenshot(page, '05-zone-map-overlap');
    await page.click('[data-testid=zone-editor] tr:nth-child(2) button:text("Remove")');
    await until(page, 'overlap warning gone', async () => (await page.locator('[data-testid=overlap-warning]').count()) === 0);
    await drag(320, 60, 560, 300);
    await page.fill('[data-testid=zone-name-0]', 'Dock');
    await page.fill('[data-testid=zone-name-1]', 'Shelf');
    expect(await page.locator('[data-testid=overlap-warning]').count()).to.equal(0);
    expect(await page.inputValue('[data-testid=resource-json]')).to.contain('"Shelf"');
    await saveResource(page);
    await page.waitForSelector('[data-testid=resource-list] a:text-is("store-floor")');
    await page.click('[data-testid=resource-list] a:text-is("store-floor")');
    await page.click('[data-testid=make-current]');
    await page.waitForSelector('[data-testid=resource-list] .pill:text("current")');
    await screenshot(page, '06-zone-map');
    const zoneMap = (await app.request('GET', '/control/v1/currentZoneMap/show/Store')).body;
    expect(zoneMap.zones.map((z: { name: string }) => z.name)).to.deep.equal(['Dock', 'Shelf']);
  });

  it('creates two readers: one placed by dragging it on the map, one by typing; cancel reverts', async () => {
    const zones = (await app.request('GET', '/control/v1/currentZoneMap/show/Store')).body.zones as Array<{ points: Array<{ x: number; y: number }> }>;
    const centre = (i: number): { x: number; y: number } => {
      const [a, b] = zones[i]!.points as [{ x: number; y: number }, { x: number; y: number }];
      return { x: Math.round((a.x + b.x) / 2), y: Math.round((a.y + b.y) / 2) };
    };

    await openKind(page, 'Reader definitions');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'xarray-1');
    await page.selectOption('select[name=facility]', 'Store');
    await page.fill('input[name=groups]', 'console-demo');
    await page.fill('input[name="placement.x"]', String(centre(0).x));
    await page.fill('input[name="placement.y"]', String(centre(0).y));
    // Drag the reader's square a little to the right: x grows, y is kept.
    const square = page.locator('[data-testid=placement-editor] rect[data-reader="xarray-1"]');
    await page.locator('[data-testid=placement-editor]').scrollIntoViewIfNeeded();
    const sq = (await square.boundingBox())!;
    await page.mouse.move(sq.x + sq.width / 2, sq.y + sq.height / 2);
    await page.mouse.down();
    await page.mouse.move(sq.x + sq.width / 2 + 20, sq.y + sq.height / 2);
    await page.mouse.move(sq.x + sq.width / 2 + 40, sq.y + sq.height / 2);
    await page.mouse.up();
    const draggedX = Number(await page.inputValue('input[name="placement.x"]'));
    expect(draggedX).to.be.greaterThan(centre(0).x);
    await screenshot(page, '07-reader-placement');
    await saveResource(page);
    await page.waitForSelector('[data-testid=resource-list] a:text-is("xarray-1")');
    const stored = (await app.request('GET', '/configuration/v1/readerDefinitions/show/xarray-1')).body;
    expect(stored.placement.x).to.equal(draggedX);
    expect(stored.groups).to.deep.equal(['console-demo']);

    // Cancel reverts an edit of the stored reader.
    await page.click('[data-testid=resource-list] a:text-is("xarray-1")');
    await page.fill('input[name=address]', 'typo.local');
    expect(await page.inputValue('[data-testid=resource-json]')).to.contain('typo.local');
    await page.click('button:text-is("Cancel")');
    expect(await page.inputValue('input[name=address]')).to.equal('');
    expect(await page.inputValue('[data-testid=resource-json]')).not.to.contain('typo.local');

    await createResource(page, 'Reader definitions', async (p) => {
      await p.fill('input[name=name]', 'xarray-2');
      await p.selectOption('select[name=facility]', 'Store');
      await p.fill('input[name=groups]', 'console-demo');
      await p.fill('input[name="placement.x"]', String(centre(1).x));
      await p.fill('input[name="placement.y"]', String(centre(1).y));
    }, 'xarray-2');
  });

  it('creates a reader configuration and a recipe; the API\'s error shows on the field it names', async () => {
    await createResource(page, 'Reader configurations', async (p) => p.fill('input[name=name]', 'locate'), 'locate');
    await openKind(page, 'Recipes');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'locate');
    await page.selectOption('select[name=readerConfigurationName]', 'locate');
    await page.fill('input[name=reportingInterval]', '7');
    await saveResource(page);
    const fieldError = await page.waitForSelector('[data-testid="error-reportingInterval"]');
    expect(await fieldError.textContent()).to.match(/0, 1, 2|one of|must be/);
    await screenshot(page, '08-recipe-field-error');
    await page.fill('input[name=reportingInterval]', '1');
    // LOCATION timing: a 2 s location average; tags expire after 5 minutes unseen (they stay on the map for the later steps).
    await page.fill('input[name=computeWindow]', '2');
    await page.fill('input[name=tagExpiryDuration]', 'PT5M');
    await saveResource(page);
    await page.waitForSelector('[data-testid=resource-list] a:text-is("locate")');
    expect((await app.request('GET', '/configuration/v1/recipes/show/locate')).body).to.include({ type: 'LOCATION', computeWindow: 2, tagExpiryDuration: 'PT5M', reportingInterval: 1 });

    // And the demo's INVENTORY configuration and recipe.
    await createResource(page, 'Reader configurations', async (p) => {
      await p.fill('input[name=name]', 'inventory');
      await p.selectOption('select[name=operation]', 'INVENTORY');
      await p.selectOption('select[name="configuration.readerMode"]', 'MAX_THROUGHPUT');
      await p.selectOption('select[name="configuration.searchMode"]', 'DUAL_TARGET');
      await p.fill('input[name="configuration.transmitPowerInDbm"]', '30');
    }, 'inventory');
    await createResource(page, 'Recipes', async (p) => {
      await p.fill('input[name=name]', 'inventory');
      await p.selectOption('select[name=type]', 'INVENTORY');
      await p.selectOption('select[name=readerConfigurationName]', 'inventory');
      await p.fill('input[name=reportingInterval]', '2');
      // A reader with a configuration of its own (the demo's per-reader map, there for its portals), written in the JSON beside the form.
      const doc = JSON.parse(await p.inputValue('[data-testid=resource-json]')) as Record<string, unknown>;
      await p.fill('[data-testid=resource-json]', JSON.stringify({ ...doc, readerConfigurations: { 'xarray-2': 'inventory' } }, null, 2));
      expect(await p.inputValue('input[name=reportingInterval]'), 'the form follows the JSON').to.equal('2');
    }, 'inventory');
    expect((await app.request('GET', '/configuration/v1/readerConfigurations/show/inventory')).body).to.deep.include({ operation: 'INVENTORY' });
    const inventory = (await app.request('GET', '/configuration/v1/recipes/show/inventory')).body;
    expect(inventory).to.include({ type: 'INVENTORY', readerConfigurationName: 'inventory' });
    expect(inventory.readerConfigurations).to.deep.equal({ 'xarray-2': 'inventory' });
    await openKind(page, 'Reader definitions');
    await page.click('[data-testid=resource-list] a:text-is("xarray-2")');
    expect(await page.textContent('[data-testid=used-by]')).to.contain('recipe inventory');
    // "Used by": the configuration is used by the recipe.
    await openKind(page, 'Reader configurations');
    await page.click('[data-testid=resource-list] a:text-is("locate")');
    expect(await page.textContent('[data-testid=used-by]')).to.contain('recipe locate');
    await screenshot(page, '09-reader-configuration');
  });

  it('starts a job from the recipe; with the simulator playing the readers, items appear and move on the live map', async () => {
    await page.click('nav.side a:text-is("Jobs")');
    await page.selectOption('select[name=recipeName]', 'locate');
    await page.fill('input[name=name]', 'console job');
    await page.selectOption('select[name=facility]', 'Store');
    await page.fill('[data-testid=job-start] input[name=readerGroups]', 'console-demo');
    jobStartedAt = Date.now();
    await page.click('[data-testid=job-start] button[type=submit]');
    await page.waitForSelector('[data-testid=job-detail]');
    const options = parseOptions(['--url', app.baseUrl, '--facility', 'Store', '--readers', '2', '--tags', '25', '--seed', '5', '--duration', '25', '--checkin-seconds', '1', '--progress', 'none']);
    simulation = runSimulation(options, { log: silent });
    await until(page, 'job RUNNING', async () => (await page.locator('[data-testid=job-detail] .pill:text("RUNNING")').count()) > 0);
    await screenshot(page, '10-jobs');
    // The URL names the job shown; its running time moves between the service's answers.
    expect(await page.evaluate<string>('location.hash')).to.match(/^#\/jobs\?job=[0-9a-f-]{36}$/);
    const runningFor = await page.textContent('[data-testid=job-running-time]');
    await until(page, 'running time moving', async () => (await page.textContent('[data-testid=job-running-time]')) !== runningFor);
    // A second job on the same readers is refused naming the running one by name, linked, with what to do next.
    await page.fill('input[name=name]', 'second job');
    await page.click('[data-testid=job-start] button[type=submit]');
    await page.waitForSelector('[role=alert] [data-testid=job-link]:text("job console job")');
    expect(await page.textContent('[role=alert] .next-step')).to.contain('Stop that job first');

    await page.click('nav.side a:text-is("Floor map")');
    await page.selectOption('[data-testid=map-facility]', 'Store');
    await until(page, 'items on the map', async () => (await mapItemCount(page)) >= 5);
    firstItemsAt = Date.now();
    const positions = async (): Promise<Map<string, string>> =>
      new Map(await page.$$eval('[data-testid=floor-map] circle[data-epc]', (cs) => cs.map((c) => [c.getAttribute('data-epc')!, `${c.getAttribute('cx')},${c.getAttribute('cy')}`] as [string, string])));
    const first = await positions();
    await until(page, 'an item moving on the map', async () => {
      const now = await positions();
      return [...now].some(([epc, at]) => first.has(epc) && first.get(epc) !== at);
    });
    await screenshot(page, '02-floor-map-live');
  });

  it('shows the overview with readers, the running job\'s counters, items by zone and service health', async () => {
    await page.click('nav.side a:text-is("Overview")');
    await page.waitForSelector('[data-testid=readers-table] td:text("xarray-1")');
    await until(page, 'job counters', async () => /console job/.test((await page.textContent('[data-testid=running-jobs]').catch(() => '')) ?? ''));
    await until(page, 'items by zone', async () => /Store \/ (Dock|Shelf)/.test((await page.textContent('[data-testid=items-by-zone]')) ?? ''));
    await until(page, 'an observation rate', async () => /observations\/s: [1-9]/.test((await page.textContent('[data-testid=rates]')) ?? ''));
    await screenshot(page, '03-overview');
  });

  it('lists items with server paging and opens an item\'s history timeline and path', async () => {
    await page.click('nav.side a:text-is("Items")');
    await page.selectOption('select[name=facility]', 'Store');
    await page.click('button:text("Apply")');
    await until(page, 'item rows', async () => (await page.locator('[data-testid=items-table] tbody tr').count()) > 0);
    await screenshot(page, '04-items');
    // CSV export of the filtered set: a header and one line per item of the facility.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text("Export CSV")')]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        let text = '';
        stream.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text)).on('error', reject);
      }, reject);
    });
    const lines = csv.trim().split('\n');
    expect(lines[0]).to.equal('epc,tagId,zone,facility,floor,xLocation,yLocation,presenceConfidence,jobId,lastModifiedTime');
    const items = (await app.request('GET', '/data/v1/items/show?facility=Store&pageSize=1000')).body.items as unknown[];
    expect(lines.length - 1).to.be.within(1, items.length);
    await page.click('[data-testid=items-table] tbody tr:first-child');
    await page.waitForSelector('[data-testid=item-history] li');
    expect(await page.textContent('[data-testid=item-now]')).to.match(/Now in (Dock|Shelf|FACILITY|ABSENT)/);
    await screenshot(page, '11-item-history');
  });

  it('replays the floor as it was before the job started, then as it was a moment ago', async () => {
    await page.click('nav.side a:text-is("Floor map")');
    await page.selectOption('[data-testid=map-facility]', 'Store');
    await until(page, 'live items', async () => (await mapItemCount(page)) > 0);
    // Keyboard zoom and pan: + narrows the viewBox, an arrow moves it, 0 fits again.
    const viewBox = async (): Promise<number[]> => ((await page.getAttribute('[data-testid=floor-map] svg', 'viewBox')) ?? '').split(' ').map(Number);
    await until(page, 'zones and readers drawn', async () => (await page.locator('[data-testid=floor-map] polygon.zone').count()) === 2 && (await page.locator('[data-testid=floor-map] rect.reader').count()) === 2);
    const fitted = await viewBox();
    await page.focus('[data-testid=floor-map] svg');
    await page.keyboard.press('+');
    const zoomed = await viewBox();
    expect(zoomed[2]).to.be.lessThan(fitted[2]!);
    await page.keyboard.press('ArrowRight');
    expect((await viewBox())[0]).to.be.greaterThan(zoomed[0]!);
    await page.keyboard.press('0');
    expect(await viewBox()).to.deep.equal(fitted);
    const slideTo = async (secondsAgo: number): Promise<void> => {
      const value = 3600 - Math.round(secondsAgo);
      // Playwright cannot fill a range input; set it as a user's drag would end, with an input event.
      await page.$eval('[data-testid=time-slider]', (el, v) => {
        const input = el as unknown as { value: string; dispatchEvent(e: Event): boolean };
        input.value = v;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, String(value));
      await page.waitForSelector('[data-testid=replay-time][data-loaded=yes]');
    };
    await slideTo((Date.now() - jobStartedAt) / 1000 + 15);
    expect(await mapItemCount(page), 'no item before the job started').to.equal(0);
    // A moment after the items were first seen on the live map, at least a second ago.
    await until(page, 'a second past the first items', async () => Date.now() - firstItemsAt > 3_000);
    await slideTo((Date.now() - firstItemsAt) / 1000 - 1.5);
    expect(await mapItemCount(page), 'items just after they were first seen').to.be.greaterThan(0);
    await screenshot(page, '12-floor-map-replay');
    await page.click('button:text("Back to live")');
    await page.waitForSelector('[data-testid=replay-time]:text("Live")');
  });

  it('shows the remaining screens: health, software, about (queues and thresholds: screens.e2e.spec.ts)', async () => {
    for (const [label, file, ready] of [
      ['Reader health', '13-health', '[data-testid=reader-health] td:text("xarray-1")'],
      ['Software & upgrades', '14-software', 'h2:text("Registered images")'],
      ['About', '17-about', '[data-testid=about] code'],
    ] as const) {
      await page.click(`nav.side a:text-is("${label}")`);
      await page.waitForSelector(ready);
      await screenshot(page, file);
    }
    expect(await page.textContent('[data-testid=about]')).not.to.match(/guest:guest/);
  });

  it('gives a DataReader data screens and no configuration forms', async () => {
    await page.click('nav.side a:text-is("Users & tokens")');
    await page.fill('[data-testid=user-form] input[name=name]', 'viewer');
    await page.fill('[data-testid=user-form] input[name=password]', 'viewer-secret');
    await page.check('[data-testid=user-form] input[name=role-DataReader]');
    await page.click('[data-testid=user-form] button[type=submit]');
    await page.waitForSelector('[data-testid=users-table] td:text-is("viewer")');
    await screenshot(page, '18-users');
    await logOut(page);
    await page.waitForSelector('input[name=username]');

    // Keyboard only: the user field has the focus, Tab moves on, Enter submits.
    await page.goto(consoleUrl);
    await page.waitForSelector('input[name=username]:focus');
    await page.keyboard.type('viewer');
    await page.keyboard.press('Tab');
    await page.keyboard.type('viewer-secret');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=whoami]:text("viewer")');
    const nav = (await page.textContent('nav.side')) ?? '';
    for (const hidden of ['Facilities', 'Zone maps', 'Reader definitions', 'Recipes', 'Jobs', 'Users']) expect(nav).not.to.contain(hidden);
    for (const shown of ['Overview', 'Floor map', 'Items', 'Reader health']) expect(nav).to.contain(shown);
    await page.goto(`${consoleUrl}#/config/facilities`);
    await page.waitForSelector('h1:text("Not available")');
    expect(await page.locator('[data-testid=resource-form]').count()).to.equal(0);
    await page.goto(`${consoleUrl}#/map`);
    await page.selectOption('[data-testid=map-facility]', 'Store');
    await until(page, 'items on the DataReader\'s map', async () => (await mapItemCount(page)) > 0);
    await screenshot(page, '19-data-reader');
    // On a tablet the menu moves above the screen.
    await page.setViewportSize({ width: 820, height: 1180 });
    const navBox = (await page.locator('nav.side').boundingBox())!;
    const mainBox = (await page.locator('main').boundingBox())!;
    expect(navBox.y + navBox.height).to.be.at.most(mainBox.y + 1);
    await screenshot(page, '20-tablet-data-reader');
    await page.setViewportSize({ width: 1280, height: 800 });
    await logOut(page);
  });

  it('stops the job from the console; readers no longer played show NOT_RESPONDING in Reader health', async () => {
    await logIn(page, consoleUrl, 'admin', 'admindefault');
    await page.click('nav.side a:text-is("Jobs")');
    await page.click('[data-testid=jobs-table] tr:has(td:text-is("console job"))');
    await page.waitForSelector('[data-testid=job-detail] h2:text("console job")');
    expect((await page.textContent('[data-testid=job-detail] table')) ?? '').to.contain('xarray-1').and.contain('xarray-2');
    await page.click('[data-testid=job-detail] button:text-is("Stop")');
    await until(page, 'job STOPPED', async () => (await page.locator('[data-testid=job-detail] .pill:text-is("STOPPED")').count()) > 0);
    expect(await page.textContent('[data-testid=job-detail]')).to.contain('stopped: USER_REQUESTED_GRACEFUL');
    await screenshot(page, '10b-job-stopped');
    // The simulator ends its run (its readers stop checking in): their health says so.
    const summary = await simulation!;
    expect(summary.totals.reportsAccepted).to.be.greaterThan(0);
    await page.click('nav.side a:text-is("Reader health")');
    for (const reader of ['xarray-1', 'xarray-2']) {
      await until(page, `${reader} NOT_RESPONDING`, async () => (await page.locator(`[data-testid=reader-health] tr:has(td:text-is("${reader}")) .pill:text-is("NOT_RESPONDING")`).count()) > 0);
    }
    await screenshot(page, '13c-health-not-responding');
    await logOut(page);
  });

  it('ends the default-password warning once the admin password is changed', async () => {
    await logIn(page, consoleUrl, 'admin', 'admindefault');
    await page.waitForSelector('[data-testid=default-password]');
    await page.click('[data-testid=default-password] a');
    await page.click('[data-testid=users-table] tr:has(td:text-is("admin")) button:text("Edit")');
    await page.fill('[data-testid=user-form] input[name=password]', 'a-better-secret');
    await page.click('[data-testid=user-form] button[type=submit]');
    await until(page, 'warning gone', async () => (await page.locator('[data-testid=default-password]').count()) === 0);
    expect((await app.request('GET', '/configuration/v1/users/currentUser', { auth: `Basic ${Buffer.from('admin:a-better-secret').toString('base64')}` })).status).to.equal(200);
  });
});
