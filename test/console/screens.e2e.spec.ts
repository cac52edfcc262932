// Console screens in a real browser (Debian's Chromium through
// playwright-core) against the whole service, each on its own: queues
// (configure, listed with the broker's consumer count, delete) and the
// thresholds form's readers map.
// Screenshots go to test-artifacts/console/. Every wait is on a condition.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, screenshot, until, type TestBrowser } from '../support/browser';
import { consume, type Consumer } from '../queues/support';

describe('console screens in Chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;
  const consumers: Consumer[] = [];

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
});
