// The console telling the truth, in Chromium against the whole service:
// rates from the server's records from the first second, stale figures
// marked while tagtrail does not answer, the items filters the query honours
// (in the URL, with totals and the items a format cannot show), every field
// error at once on its field or row, and the layout on a phone (menu, no
// sideways scroll, editor wide enough, skip link, dark scheme).
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, screenshot, until, type TestBrowser } from '../support/browser';
import { appendWithHistory, changes, projected } from './item-fixtures';

const FACILITY = 'Truth';
/** SGTIN-96 EPCs (header 30): they decode as PURE_ID; the E2C1 ones do not. */
const DECODABLE = '3074257BF7194E40';
/** The console's route (the page's location hash). */
const hash = (page: Page): Promise<string> => page.evaluate<string>('location.hash');

describe('console truth in Chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp({});
    consoleUrl = new URL('/console/', app.baseUrl).toString();
    expect((await app.request('POST', '/configuration/v1/facilities/create', { body: { name: FACILITY } })).status).to.equal(200);
    const square = (x: number) => [{ x, y: 0 }, { x: x + 5, y: 0 }, { x: x + 5, y: 5 }, { x, y: 5 }];
    expect((await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'truth-plan', facility: FACILITY, zones: [{ name: 'Dock', points: square(0) }, { name: 'Floor', points: square(10) }] } })).status).to.equal(200);
    expect((await app.request('POST', '/control/v1/currentZoneMap/select/truth-plan')).status).to.equal(200);
    // Ten item changes a minute before the page opens, recorded in history: the rate chart must show them at once.
    const at = Date.now() - 60_000;
    const batch = [...changes(FACILITY, DECODABLE, 0, 4, 'FIRST_SEEN', at, () => ({ x: 11, y: 1 })), ...changes(FACILITY, 'E2C1', 0, 6, 'FIRST_SEEN', at, () => ({ x: 12, y: 2 }))];
    await appendWithHistory(app, batch);
    await projected(app, FACILITY, batch[batch.length - 1]!.epc, 60_000);
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = await browser.newPage();
    page.on('dialog', (d) => void d.accept());
    await logIn(page, consoleUrl, 'admin', 'admindefault');
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });
  afterEach(function () {
    expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
  });
  const openScreen = (label: string): Promise<void> => page.click(`nav.side a:text-is("${label}")`);
  const text = async (selector: string): Promise<string> => (await page.textContent(selector)) ?? '';

  it('Overview: the rate chart holds what the server recorded before the page opened, and its axis ends now, not in the future', async () => {
    await openScreen('Overview');
    const legend = '[data-testid=rates] [data-label="item changes/s"]';
    await page.waitForSelector(legend);
    expect(Number(await page.getAttribute(legend, 'data-sum'))).to.equal(10);
    const end = Number(await page.getAttribute('[data-testid=rates]', 'data-end'));
    const now = Date.now() / 1000;
    expect(end).to.be.within(now - 10, now + 1);
    await screenshot(page, '21-overview-rates');
  });

  it('Overview: while tagtrail does not answer, a plain banner says so and the figures stay, marked as not current', async () => {
    await openScreen('Overview');
    await page.waitForSelector('[data-testid=readers-table]');
    const cut = (url: URL): boolean => url.pathname.includes('/itemsense/') || url.pathname.endsWith('/healthz');
    await page.route(cut, (route) => route.abort('connectionrefused'));
    try {
      await page.waitForSelector('[data-testid=not-answering]:has-text("tagtrail is not answering")');
      await page.waitForSelector('[data-testid=stale]');
      // What was shown stays, marked; no "Failed to fetch" anywhere.
      expect(await page.locator('[data-testid=dependencies]').count()).to.equal(1);
      expect(await text('main')).not.to.contain('Failed to fetch');
      await screenshot(page, '22-not-answering');
    } finally {
      await page.unroute(cut);
    }
    await until(page, 'banner gone once tagtrail answers', async () => (await page.locator('[data-testid=not-answering]').count()) === 0);
  });

  it('Items: filters from pickers go to the URL and survive a reload; totals; the items a format cannot show are counted; no presence filter', async () => {
    await openScreen('Items');
    expect(await page.locator('select[name=presenceConfidence]').count()).to.equal(0);
    await page.selectOption('select[name=facility]', FACILITY);
    await page.selectOption('select[name=zoneNames]', ['Floor']);
    await page.click('button:text("Apply")');
    await until(page, 'filters in the URL', async () => /facility=Truth&zoneNames=Floor/.test(await hash(page)));
    await page.waitForSelector('[data-testid=items-total]:text("10 items in all")');
    await page.reload();
    await page.waitForSelector('[data-testid=items-total]:text("10 items in all")');
    expect(await page.inputValue('select[name=facility]')).to.equal(FACILITY);

    await page.selectOption('select[name=epcFormat]', 'PURE_ID');
    await page.click('button:text("Apply")');
    await page.waitForSelector('[data-testid=items-hidden]:text("6 items cannot be shown in this format")');
    await page.waitForSelector('[data-testid=items-page-info]:text("4 items on this page")');
    await screenshot(page, '23-items-format');

    // Sorting by a column: the URL keeps it; EPCs descending.
    await page.selectOption('select[name=epcFormat]', '');
    await page.click('button:text("Apply")');
    await page.waitForSelector('[data-testid=items-page-info]:text("10 items on this page")');
    await page.click('[data-testid=items-table] th button:text("EPC")');
    await page.click('[data-testid=items-table] th button:text("EPC")');
    await until(page, 'sorted descending', async () => /sort=epc&dir=desc/.test(await hash(page)));
    // The URL changes first; the rows follow once the sorted page is drawn.
    await until(page, 'the highest EPC first', async () => /^E2C1/.test(await text('[data-testid=items-table] tr[data-row="0"] td:first-child')));
  });

  it('Items: a prefix the service refuses shows the reason on the field, and no rows of an earlier query stay under it', async () => {
    await page.evaluate("location.hash = '#/items?facility=Truth'");
    await page.waitForSelector('[data-testid=items-page-info]:text("10 items on this page")');
    await page.evaluate("location.hash = '#/items?epcPrefix=XYZ'");
    await page.waitForSelector('#epcPrefix-error');
    expect(await page.getAttribute('[data-testid=items-table]', 'data-rows')).to.equal('0');
    expect(await page.isDisabled('button:text("Apply")')).to.equal(true);
  });

  it('Configuration: nonsense is marked on its field as it is typed; the service\'s errors all come at once, each on its field or row', async () => {
    await openScreen('Facilities');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'Ware house/2!');
    await page.waitForSelector('[data-testid="error-name"]:text("must not contain \\"/\\"")');

    await openScreen('Reader definitions');
    await page.click('[data-testid=new-resource]');
    await page.fill('input[name=name]', 'rd-bad');
    await page.fill('input[name=address]', 'not a host!!');
    await page.fill('input[name="placement.yaw"]', '400');
    await page.waitForSelector('[data-testid="error-address"]');
    await page.waitForSelector('[data-testid="error-placement.yaw"]:text("between -360 and 360")');
    expect(await page.isDisabled('button:text("Review and save")')).to.equal(true);
    // What only the service knows: the reader type's antennas and the facility's zones, sent through the JSON.
    await page.fill('[data-testid=resource-json]', JSON.stringify({ name: 'rd-bad', type: 'XSPAN', facility: FACILITY, address: '10.0.0.9', readerZone: 'Nowhere', antennaZones: { '14': 'Dock', '2': 'Aisle 9' } }));
    await page.click('button:text("Review and save")');
    await page.click('[data-testid=confirm-save]');
    await page.waitForSelector('[data-testid="error-readerZone"]:text("is not in zone map truth-plan")');
    const listed = await text('[data-testid=save-error]');
    expect(listed).to.contain('antennaZones, 14').and.to.contain('antennaZones, 2').and.to.contain('All 3 problems');
    await screenshot(page, '24-reader-field-errors');

    await openScreen('Reader configurations');
    await page.click('[data-testid=new-resource]');
    await page.selectOption('select[name=operation]', 'INVENTORY');
    await page.fill('input[name="configuration.antennas"]', 'two');
    await page.waitForSelector('[data-testid="error-configuration.antennas"]:text("not a whole number")');
    expect(await page.inputValue('[data-testid=resource-json]')).not.to.match(/NaN|"antennas": \[\s*null/);

    await openScreen('Zone maps');
    await page.click('[data-testid=new-resource]');
    const rect = [{ x: 0, y: 0 }, { x: 1, y: 1 }];
    await page.fill('[data-testid=resource-json]', JSON.stringify({ name: 'zm-bad', facility: FACILITY, zones: [{ name: 'A', points: rect }, { name: ' ', points: [{ x: 3, y: 3 }, { x: 4, y: 4 }] }] }));
    await page.click('button:text("Review and save")');
    await page.click('[data-testid=confirm-save]');
    await page.waitForSelector('[data-testid=zone-row-1] [data-testid=zone-error-1]:text("must not be empty")');
    expect(await text('[data-testid=zone-row-1] td:first-child')).to.equal('2');
    expect(await page.locator('[data-testid=save-error] li:has-text("zones")').count()).to.equal(0);
  });

  it('a phone (390 x 844) in the dark: one header line, a menu that opens and closes, no sideways scroll, a wide enough zone editor, a skip link', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      const p = await phone.newPage();
      await p.emulateMedia({ colorScheme: 'dark' });
      // logIn waits for the user's name, which a phone's header leaves out.
      await p.goto(consoleUrl);
      await p.fill('input[name=username]', 'admin');
      await p.fill('input[name=password]', 'admindefault');
      await p.click('button[type=submit]');
      await p.waitForSelector('main h1');
      const header = (await p.locator('header.top').boundingBox())!;
      expect(header.height).to.be.below(60);
      expect(await p.isVisible('nav.side')).to.equal(false);
      const background = await p.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
      const [r, g, b] = background.match(/\d+/g)!.map(Number);
      expect(r! + g! + b!, `page background ${background}`).to.be.below(150);
      for (const screen of ['Items', 'Reader health', 'Zone maps', 'Overview']) {
        await p.click('.menu-toggle');
        await p.click(`nav.side a:text-is("${screen}")`);
        await until(p, `menu closed after choosing ${screen}`, async () => !(await p.isVisible('nav.side')));
        await p.waitForSelector('main h1');
        const wide = await p.evaluate<number>('document.documentElement.scrollWidth');
        expect(wide, `${screen}: page width`).to.be.at.most(390);
        if (screen === 'Zone maps') {
          await p.click('[data-testid=new-resource]');
          const editor = (await p.locator('[data-testid=zone-map-editor]').boundingBox())!;
          expect(editor.width).to.be.at.least(300);
          await screenshot(p, '25-phone-zone-map');
        }
      }
      await screenshot(p, '26-phone-overview-dark');
      await p.reload();
      await p.waitForSelector('[data-testid=whoami]', { state: 'attached' });
      await p.keyboard.press('Tab');
      expect(await p.evaluate<string>('document.activeElement?.textContent')).to.equal('Skip to content');
      await p.keyboard.press('Enter');
      expect(await p.evaluate<string>('document.activeElement?.id')).to.equal('main');
      expect(phone.pageErrors).to.deep.equal([]);
    } finally {
      await phone.close();
    }
  });
});
