// What the support e2e tests about items share: the item queries and a poll
// of a GET until its answer is what the test waits for (bounded, no timing assertion).
import type { TestApp } from '../support/app';
import { waitForValue } from '../support/wait';

export const ITEMS = '/data/v1/items/show';
export const HISTORY = '/data/v1/items/show/history';

/** GETs `path` until it answers 200 with a body `ok` accepts (20 s at most); returns that body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function until(app: TestApp, path: string, ok: (body: any) => boolean, what: string): Promise<any> {
  const res = await waitForValue(what, () => app.request('GET', path), (r) => r.status === 200 && ok(r.body), { timeoutMs: 20_000, intervalMs: 100 });
  return res.body;
}
