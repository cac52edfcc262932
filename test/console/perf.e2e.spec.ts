// The console's performance budget, measured in Chromium and printed (not
// asserted: figures depend on the machine and its load): the live map with
// 5,000 items moving (frames per second, canvas renderer), and the items
// table walked page by page through every item (time per page, longest
// main-thread task). Item changes are appended to the engine's stream as the
// engine would, so the items projection and the live stream carry them for
// real. CONSOLE_PERF_ITEMS sets the table's item count (default 20,000;
// `npm run bench:console` uses 1,000,000).
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { chromiumPresent, launchBrowser, logIn, screenshot, type TestBrowser } from '../support/browser';
import { appendChanges, changes, epc, projected as projectedUpTo, type Change } from './item-fixtures';

const TABLE_ITEMS = Number(process.env['CONSOLE_PERF_ITEMS'] ?? 20_000);
const MOVING_ITEMS = 5_000;

const stats = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `median ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${q(1).toFixed(0)} ms`;
};

describe('web console performance in Chromium (printed, not asserted)', function () {
  // Generous: a bench on a loaded machine projects and pages slowly; the figures, not the time-out, tell how slowly.
  this.timeout(Math.max(300_000, TABLE_ITEMS * 10));
  let app: TestApp;
  let client: EventStoreDBClient;
  let browser: TestBrowser;
  let page: Page;

  const append = (batch: Change[]): Promise<void> => appendChanges(client, batch);
  const projected = (facility: string, lastEpc: string): Promise<void> => projectedUpTo(app, facility, lastEpc, Math.max(120_000, TABLE_ITEMS * 1.5));

  before(async function () {
    if (!chromiumPresent()) throw new Error('Chromium is missing at /usr/bin/chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    browser = await launchBrowser();
    page = await browser.newPage();
    await logIn(page, new URL('/console/', app.baseUrl).toString(), 'admin', 'admindefault');
  });
  after(async () => {
    await browser?.close();
    await client?.dispose();
    await app?.stop();
  });
  afterEach(function () {
    expect(browser.pageErrors, 'script errors in the page').to.deep.equal([]);
  });

  it(`live map: ${MOVING_ITEMS.toLocaleString('en')} items moving, frames per second`, async () => {
    const grid = (n: number, shift: number): { x: number; y: number } => ({ x: (n % 100) * 0.5 + shift, y: Math.floor(n / 100) * 0.5 });
    await append(changes('Moving', 'E2A0', 0, MOVING_ITEMS, 'FIRST_SEEN', Date.now(), (n) => grid(n, 0)));
    await projected('Moving', epc('E2A0', MOVING_ITEMS - 1));
    await page.goto(new URL('/console/#/map?facility=Moving', app.baseUrl).toString());
    await page.waitForSelector(`[data-testid=floor-map][data-items="${MOVING_ITEMS}"]`);
    expect(await page.getAttribute('[data-testid=floor-map]', 'data-renderer')).to.equal('canvas');

    // Every item moves once a second while the page counts frames for 6 s.
    let moving = true;
    let moves = 0;
    const movingSince = Date.now();
    const mover = (async () => {
      for (let step = 1; moving; step++) {
        const started = Date.now();
        await append(changes('Moving', 'E2A0', 0, MOVING_ITEMS, 'MOVED', Date.now(), (n) => grid(n, (step % 2) * 0.4)));
        moves += MOVING_ITEMS;
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
      }
    })();
    await page.waitForTimeout(1500); // the first moves are on their way
    // A string, not a function: the test's compiler would add helpers the page does not have.
    const fps = (await page.evaluate(`new Promise((resolve) => {
      let frames = 0;
      const t0 = performance.now();
      const tick = () => {
        frames++;
        if (performance.now() - t0 < 6000) requestAnimationFrame(tick);
        else resolve(frames / ((performance.now() - t0) / 1000));
      };
      requestAnimationFrame(tick);
    })`)) as number;
    moving = false;
    await mover;
    await screenshot(page, 'perf-map-5000');
    const movesPerSecond = moves / ((Date.now() - movingSince) / 1000);
    console.log(`      [perf] live map, ${MOVING_ITEMS} items on canvas, ${Math.round(movesPerSecond)} item moves/s through the live stream: ${fps.toFixed(1)} frames/s (budget >= 30)`);
    expect(fps).to.be.greaterThan(0);
  });

  it(`items table: every page of ${TABLE_ITEMS.toLocaleString('en')} items, server paged`, async () => {
    const at = Date.now();
    for (let from = 0; from < TABLE_ITEMS; from += 20_000) {
      await append(changes('Big', 'E2B0', from, Math.min(20_000, TABLE_ITEMS - from), 'FIRST_SEEN', at, (n) => ({ x: n % 50, y: Math.floor(n / 50) % 50 })));
    }
    await projected('Big', epc('E2B0', TABLE_ITEMS - 1));
    await page.goto(new URL('/console/#/items?facility=Big', app.baseUrl).toString());
    await page.selectOption('select:has(option[value="1000"])', '1000');
    await page.waitForSelector('[data-testid=items-page-info]:text("1000 items on this page")');
    // Long tasks (> 50 ms on the main thread) are what a user feels as a freeze.
    await page.evaluate(`window.longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ entryTypes: ['longtask'] });`);
    const pageMs: number[] = [];
    const seen = new Set<string>();
    // The table renders only the rows in view: each page's first row, then its last one scrolled to.
    const rowEpc = async (n: number): Promise<string> => (await page.textContent(`[data-testid=items-table] tr[data-row="${n}"] td:first-child`)) ?? '';
    let total = 0;
    const lasts = new Set<string>();
    for (let n = 1; ; n++) {
      const count = Number(await page.getAttribute('[data-testid=items-table]', 'data-rows'));
      total += count;
      seen.add(await rowEpc(0));
      await page.$eval('[data-testid=items-table-scroll]', (el) => { el.scrollTop = el.scrollHeight; });
      await page.waitForSelector(`[data-testid=items-table] tr[data-row="${count - 1}"]`);
      lasts.add(await rowEpc(count - 1));
      const next = page.locator('button:text("Next")');
      if (await next.isDisabled()) break;
      const t0 = Date.now();
      await next.click();
      await page.waitForSelector(`.row span.muted:text-is("page ${n + 1}")`);
      pageMs.push(Date.now() - t0);
    }
    const longTasks = (await page.evaluate('window.longTasks')) as number[];
    await screenshot(page, 'perf-items-table');
    console.log(`      [perf] items table, ${TABLE_ITEMS} items in ${pageMs.length + 1} pages of 1000: next page ${stats(pageMs)}; main-thread tasks over 50 ms: ${longTasks.length}, longest ${Math.round(Math.max(0, ...longTasks))} ms`);
    expect(total, 'every item once').to.equal(TABLE_ITEMS);
    expect([seen.size, lasts.size], 'first and last rows of the pages all different').to.deep.equal([pageMs.length + 1, pageMs.length + 1]);
  });
});
