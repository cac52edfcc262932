// The end of a browser test file: what it opened closed in order (the
// browser first: its pages hold live streams to the service), and after each
// test no uncaught script error in the page.
import { expect } from 'chai';
import type { TestBrowser } from '../support/browser';

interface Closeable {
  close?(): Promise<unknown>;
  dispose?(): Promise<unknown>;
  stop?(): Promise<unknown>;
}

export async function closeInOrder(...things: ReadonlyArray<Closeable | undefined>): Promise<void> {
  for (const t of things) await (t?.close?.() ?? t?.dispose?.() ?? t?.stop?.());
}

export function expectNoPageErrors(browser: TestBrowser | undefined): void {
  expect(browser?.pageErrors ?? [], 'script errors in the page').to.deep.equal([]);
}
