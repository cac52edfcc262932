// Shared by the reader connector tests: a silent logger, polling with a
// deadline, and the service in-process with settings of a describe.
import type { Logger } from '../../src/core/logger';
import { startTestApp, type TestApp } from '../support/app';

export const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it answers something other than undefined (errors count as not yet). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await probe().catch((e: unknown) => ((last = e), undefined));
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${String(last)})`);
    await sleep(200);
  }
}

/** Mocha hooks of a describe: the whole service in-process with `env` (settings); returns a getter of the app. */
export function appWithEnv(env: Record<string, string>): () => TestApp {
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp(env);
  });
  after(async () => {
    await app?.stop();
  });
  return () => app as TestApp;
}
