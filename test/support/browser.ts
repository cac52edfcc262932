// Debian's Chromium driven by playwright-core for the console's browser
// tests: headless, a fresh profile per launch, no background traffic.
// Screenshots go to test-artifacts/console/ (git-ignored).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from './child';
import { waitFor } from './wait';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'console');

export const chromiumPresent = (): boolean => existsSync(CHROMIUM);

export interface TestBrowser {
  readonly context: BrowserContext;
  /** Uncaught script errors of every page: a test ends by expecting none. */
  readonly pageErrors: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'tagtrail-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const pageErrors: string[] = [];
  return {
    context,
    pageErrors,
    newPage: async () => {
      const page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err.stack ?? err.message));
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Logs in through the form and waits for the shell. */
export async function logIn(page: Page, consoleUrl: string, user: string, password: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.fill('input[name=username]', user);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  // Attached, not visible: on a phone the header folds the user's name into its menu.
  await page.waitForSelector('[data-testid=whoami]', { state: 'attached' });
}

/**
 * Logs out and waits for the login form: the console revokes an Admin's token
 * before it forgets it, and a navigation while that request is under way
 * would cancel it and come back logged in.
 */
export async function logOut(page: Page): Promise<void> {
  await page.click('button:text("Log out")');
  await page.waitForSelector('input[name=username]');
}

/** Polls `test` until it holds (a deadline, never a fixed sleep); on time-out a screenshot `failed-<what>` and an error naming it. */
export async function until(page: Page, what: string, test: () => Promise<boolean>, ms = 60_000): Promise<void> {
  try {
    await waitFor(what, test, { timeoutMs: ms, intervalMs: 200 });
  } catch (err) {
    await screenshot(page, `failed-${what.replace(/\W+/g, '-')}`);
    throw err;
  }
}
