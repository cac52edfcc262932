// Accessibility of every console screen, checked by axe-core (the engine
// behind most accessibility checkers) in Chromium against the whole service,
// on a desktop (1440 x 900) and a phone (390 x 844), in the light and the
// dark scheme: no violation of serious or critical impact.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, screenshot, until, type TestBrowser } from '../support/browser';

/** Hash routes of the screens an Admin sees; `new` opens the form of a new resource. */
const SCREENS: ReadonlyArray<{ route: string; new?: boolean }> = [
  { route: 'overview' }, { route: 'map' }, { route: 'items' }, { route: 'jobs' }, { route: 'health' }, { route: 'queues' },
  { route: 'config/facilities', new: true }, { route: 'config/zoneMaps', new: true }, { route: 'config/readerDefinitions', new: true },
  { route: 'config/readerConfigurations', new: true }, { route: 'config/recipes', new: true }, { route: 'config/thresholds', new: true },
  { route: 'software' }, { route: 'users' }, { route: 'about' },
];
const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 390, height: 844 }];
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Finding { id: string; impact: string; help: string; targets: string[] }

/** axe's serious and critical findings on the page as it is now. */
async function seriousFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.addScriptTag({ content: AXE });
  return page.evaluate<Finding[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`);
}

describe('console accessibility (axe-core) in Chromium', function () {
  this.timeout(600_000);
  let app: TestApp;
  let consoleUrl: string;
  const browsers: TestBrowser[] = [];

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp({});
    consoleUrl = new URL('/console/', app.baseUrl).toString();
    // A reader, so status pills (their colours on their backgrounds) are on the screens checked.
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'a11y-reader', type: 'XARRAY', address: 'a11y.local' } })).status).to.equal(200);
  });
  after(async () => {
    for (const b of browsers) await b.close();
    await app?.stop();
  });

  for (const viewport of VIEWPORTS) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`every screen at ${viewport.width} x ${viewport.height}, ${scheme}: no serious or critical violation`, async () => {
        const browser = await launchBrowser(viewport);
        browsers.push(browser);
        const page = await browser.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        const findings: string[] = [];
        const note = (where: string, found: Finding[]): void => {
          for (const f of found) findings.push(`${where}: ${f.id} (${f.impact}) ${f.help}: ${f.targets.join(' | ')}`);
        };
        await page.goto(consoleUrl);
        await page.waitForSelector('input[name=username]');
        note('login', await seriousFindings(page));
        await page.fill('input[name=username]', 'admin');
        await page.fill('input[name=password]', 'admindefault');
        await page.click('button[type=submit]');
        await page.waitForSelector('main h1');
        for (const screen of SCREENS) {
          await page.evaluate(`location.hash = '#/${screen.route}'`);
          await page.waitForSelector('main h1');
          if (screen.new) {
            await page.click('[data-testid=new-resource]');
            await page.waitForSelector('[data-testid=resource-form]');
          }
          // Measured once the first answers are in: a screen still loading is not what an operator works with.
          await until(page, `${screen.route} loaded`, async () => !/Loading…/.test((await page.textContent('main')) ?? ''), 30_000).catch(() => undefined);
          note(screen.route, await seriousFindings(page));
        }
        if (findings.length) await screenshot(page, `failed-a11y-${viewport.width}-${scheme}`);
        expect(findings, findings.join('\n')).to.deep.equal([]);
        expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
      });
    }
  }
});
