// Shared by the reader connector tests: polling with a deadline, and the
// service in-process with settings of a describe.
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/wait';

/** Polls `probe` until it answers something other than undefined (errors count as not yet). */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> =>
  waitFor(what, probe, { timeoutMs, intervalMs: 200, retryErrors: true });

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
