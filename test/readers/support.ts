// Shared by the reader connector tests: a silent logger, polling with a
// deadline, and environment variables the roles read when they start, set
// for one describe and restored after.
import type { Logger } from '../../src/core/logger';
import type { TestApp } from '../support/app';
import { waitFor } from '../support/wait';

export const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };

/** Polls `probe` until it answers something other than undefined (errors count as not yet). */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> =>
  waitFor(what, probe, { timeoutMs, intervalMs: 200, retryErrors: true });

/** Sets `vars` in process.env; the returned function puts the old values back. */
export function setEnv(vars: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/**
 * Mocha hooks of a describe: the whole service in-process with `env` set
 * while it starts; returns a getter of the app.
 */
export function appWithEnv(env: Record<string, string>, start: () => Promise<TestApp>): () => TestApp {
  let app: TestApp | undefined;
  let restore = (): void => undefined;
  before(async () => {
    restore = setEnv(env);
    app = await start();
  });
  after(async () => {
    await app?.stop();
    restore();
  });
  return () => app as TestApp;
}
