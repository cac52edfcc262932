// What the support e2e tests about items share: the item queries and a poll
// of a GET until its answer is what the test waits for (bounded, no timing assertion).
import type { TestApp } from '../support/app';

export const ITEMS = '/data/v1/items/show';
export const HISTORY = '/data/v1/items/show/history';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GETs `path` until it answers 200 with a body `ok` accepts (20 s at most); returns that body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function until(app: TestApp, path: string, ok: (body: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await app.request('GET', path);
    if (res.status === 200 && ok(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
}
