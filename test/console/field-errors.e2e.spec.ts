// The console in Chromium with bodies the service refuses for several
// reasons at once: every problem of one answer is shown, each on the field or
// row it names, the rest listed; and the users form's password: a hint while
// typing, the service's reason after a submit.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, screenshot, type TestBrowser } from '../support/browser';

const square = (x: number): Array<{ x: number; y: number }> => [{ x, y: 0 }, { x: x + 5, y: 0 }, { x: x + 5, y: 5 }, { x, y: 5 }];

describe('console: several field errors at once, and the password policy, in Chromium', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp({});
    const map = await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'plan', facility: 'DEFAULT', zones: [{ name: 'Dock', points: square(0) }, { name: 'Aisle', points: square(10) }] } });
    expect(map.status).to.equal(200);
    expect((await app.request('POST', '/control/v1/currentZoneMap/select/plan')).status).to.equal(200);
    browser = await launchBrowser();
    page = await browser.newPage();
    await logIn(page, new URL('/console/', app.baseUrl).toString(), 'admin', 'admindefault');
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });
  afterEach(function () {
    expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
  });

  /** A new resource of `label` written as JSON, reviewed and sent. */
  async function submitJson(label: string, doc: unknown): Promise<void> {
    await page.click(`nav.side a:text-is("${label}")`);
    await page.click('[data-testid=new-resource]');
    await page.fill('[data-testid=resource-json]', JSON.stringify(doc, null, 2));
    await page.click('button:text("Review and save")');
    await page.click('[data-testid=confirm-save]');
    await page.waitForSelector('[data-testid=save-error]');
  }
  const text = async (testid: string): Promise<string> => (await page.textContent(`[data-testid="${testid}"]`)) ?? '';

  it('a zone map with a type error in one row and rule errors in two others and its facility: each shown on its row or field', async () => {
    const zones = [{ name: 'Dock', points: [{ x: 'a', y: 0 }, ...square(0).slice(1)] }, { name: 'ABSENT', points: square(10) }, { name: 'Line', points: [{ x: 1, y: 1 }] }];
    await submitJson('Zone maps', { name: 'bad-plan', facility: 'Nowhere', zones });
    expect(await text('zone-error-0')).to.contain('must be a finite number');
    expect(await text('zone-error-1')).to.contain('reserved zone name');
    expect(await text('zone-error-2')).to.contain('at least 2 points');
    expect(await text('error-facility')).to.contain('unknown facility');
    expect(await text('save-error')).to.contain('All 4 problems are listed');
    await screenshot(page, '08c-zone-map-row-errors');
    expect((await app.request('GET', '/configuration/v1/zoneMaps/show/bad-plan')).status).to.equal(404);
  });

  it('a reader definition with type and rule errors: those with a field on it, the others listed', async () => {
    await submitJson('Reader definitions', { name: 'r9', type: 'XSPAN', groups: 'dock', placement: { pitch: 'up' }, readerZone: 'Nowhere', antennaZones: { '14': 'Dock' } });
    expect(await text('error-groups')).to.contain('expected');
    expect(await text('error-readerZone')).to.contain('is not in zone map plan');
    const listed = await text('save-error');
    expect(listed).to.contain('All 4 problems are listed');
    expect(listed).to.match(/pitch/i);
    expect(listed).to.contain('a XSPAN reader has antennas 1-13');
    await screenshot(page, '08b-reader-definition-all-errors');
  });

  it('users: the password rule is shown, a hint while typing, the service\'s reason after a submit; a good password is taken', async () => {
    await page.click('nav.side a:text-is("Users & tokens")');
    const form = '[data-testid=user-form]';
    await page.fill(`${form} input[name=name]`, 'erin');
    await page.fill(`${form} input[name=password]`, 'erin-pw');
    expect(await text('error-password')).to.equal('must be at least 12 characters, 7 so far');
    // Long enough for the hint, but one of the common passwords: only the service knows.
    await page.fill(`${form} input[name=password]`, 'Password1234');
    expect(await page.locator('[data-testid=error-password]').count()).to.equal(0);
    await page.check(`${form} input[name=role-DataReader]`);
    await page.click(`${form} button[type=submit]`);
    await page.waitForSelector('[data-testid=error-password]:text("most common passwords")');
    await screenshot(page, '17b-users-password-policy');
    expect((await app.request('GET', '/configuration/v1/users/show/erin')).status).to.equal(404);
    await page.fill(`${form} input[name=password]`, 'erin reads the dock');
    expect(await page.locator('[data-testid=error-password]').count(), 'the reason went with the password it was about').to.equal(0);
    await page.click(`${form} button[type=submit]`);
    await page.waitForSelector('[data-testid=users-table] td:text-is("erin")');
  });

  it('users: changing a password to the factory default is refused on the field; the old one still logs in', async () => {
    await page.click('[data-testid=users-table] tr:has(td:text-is("erin")) button:text("Edit")');
    await page.fill('[data-testid=user-form] input[name=password]', 'admindefault');
    await page.click('[data-testid=user-form] button[type=submit]');
    await page.waitForSelector('[data-testid=error-password]:text("most common passwords")');
    const auth = `Basic ${Buffer.from('erin:erin reads the dock').toString('base64')}`;
    expect((await app.request('GET', '/configuration/v1/users/currentUser', { auth })).status).to.equal(200);
  });
});
