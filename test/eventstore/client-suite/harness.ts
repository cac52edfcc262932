// What the official Node client's stream tests need to run under mocha
// against the embedded event store: the jest API they are written in (jest's
// own `expect` and `jest-mock` packages, and describe/test/each/hooks mapped
// onto mocha), a test node that is the embedded store in a temporary
// directory, and the test utilities of that repository (test events, collect,
// delay, version matching), written again here.
//
// The test files beside this one are adapted copies of
// EventStore-Client-NodeJS v6.2.1, packages/test/src/streams (Apache License
// 2.0, copyright Event Store Ltd; text in src/eventstore/protos/LICENSE).
/* eslint-disable @typescript-eslint/no-explicit-any -- jest's each() rows and test bodies are untyped by design */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'expect';
import { fn, spyOn } from 'jest-mock';
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient as Client, binaryEvent, jsonEvent, type EventData, type JSONType, type StreamingRead } from '@eventstore/db-client';
import { startEmbeddedEventStore, type EmbeddedEventStore } from '../../../src/eventstore/server';
import { SERVER_VERSION } from '../../../src/eventstore/grpc/features';
import { testLogger } from '../../support/eventstore';

export { expect };
export type { SpiedFunction } from 'jest-mock';
// As jest's global typing has it: a mock's implementation takes any arguments.
const mockFn = (implementation?: (...args: any[]) => any) => fn(implementation);
export const jest = { fn: mockFn, spyOn };

type Body = (...args: any[]) => unknown;
type Run = (name: string, body: Body, timeout?: number) => void;

/** jest's printf-style test names: %s, %d, %i, %p, %j take the row's values in order. */
function title(name: string, args: readonly unknown[]): string {
  let i = 0;
  return name.replace(/%[sdipj]/g, () => String(args[i++]));
}

/** The rows of a tagged-template table: a header line `a | b | c`, then the values, row by row, as objects. */
function templateRows(strings: TemplateStringsArray, values: readonly unknown[]): Array<Record<string, unknown>> {
  const keys = (strings[0] ?? '').split('|').map((k) => k.trim());
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i + keys.length <= values.length; i += keys.length) rows.push(Object.fromEntries(keys.map((k, j) => [k, values[i + j]])));
  return rows;
}

type Each = (table: readonly unknown[] | TemplateStringsArray, ...values: unknown[]) => (name: string, body: Body, timeout?: number) => void;

/**
 * `.each(table)(name, body)`: one test (or suite) per row; an array row is
 * spread into the arguments (names take them by %s), an object row of a
 * template table is the one argument (names take its fields by $key).
 */
function withEach<R extends Run>(run: R): R & { each: Each } {
  const each: Each = (table, ...values) => (name, body, timeout) => {
    if ('raw' in table) {
      for (const row of templateRows(table, values)) run(name.replace(/\$(\w+)/g, (_, k: string) => String(row[k])), () => body(row), timeout);
      return;
    }
    for (const row of table) {
      const args = Array.isArray(row) ? (row as unknown[]) : [row];
      run(title(name, args), () => body(...args), timeout);
    }
  };
  return Object.assign(run, { each });
}

// Mocha hands a `done` to bodies that declare a parameter; jest's never take one here, so wrap them.
const mochaBody = (body: Body) => async (): Promise<void> => {
  await body();
};

const describeRun: Run = (name, body) => void globalThis.describe(name, () => void body());
export const describe = Object.assign(
  withEach(describeRun),
  { skip: (name: string, body: Body) => void globalThis.describe.skip(name, () => void body()) },
);

const testRun: Run = (name, body, timeout) => {
  const t = globalThis.it(name, mochaBody(body));
  if (timeout !== undefined) t.timeout(timeout);
};
export const test = Object.assign(
  withEach(testRun),
  { skip: (name: string, body: Body) => void globalThis.it.skip(name, mochaBody(body)) },
);
export const it = test;

export const beforeAll = (body: Body): void => void globalThis.before(mochaBody(body));
export const afterAll = (body: Body): void => void globalThis.after(mochaBody(body));
export const beforeEach = (body: Body): void => void globalThis.beforeEach(mochaBody(body));
export const afterEach = (body: Body): void => void globalThis.afterEach(mochaBody(body));

export const optionalTest = (run: boolean): typeof test | typeof test.skip => (run ? test : test.skip);
export const optionalDescribe = (run: boolean): typeof describe | typeof describe.skip => (run ? describe : describe.skip);

/** `matchServerVersion\`>=21.10\``: whether the embedded store's reported version matches. */
export function matchServerVersion(parts: TemplateStringsArray): boolean {
  const m = /^(>=|<=)?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(parts.join(''));
  if (!m) throw new Error(`malformed version ${parts.join('')}`);
  const [year, month, patch] = SERVER_VERSION.split('.').map(Number) as [number, number, number];
  const wanted = [Number(m[2]), m[3] === undefined ? undefined : Number(m[3]), m[4] === undefined ? undefined : Number(m[4])];
  const have = [year, month, patch];
  let cmp = 0;
  for (let i = 0; i < 3 && cmp === 0; i++) if (wanted[i] !== undefined) cmp = Math.sign((have[i] ?? 0) - (wanted[i] ?? 0));
  return m[1] === '>=' ? cmp >= 0 : m[1] === '<=' ? cmp <= 0 : cmp === 0;
}

const clients = new Set<Client>();

/** The client, remembering every instance so the node's shutdown can close them (the upstream tests leave them open). */
export class EventStoreDBClient extends Client {
  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    clients.add(this);
  }
}

/** The test node: the embedded store on a free port in a temporary directory. */
class EmbeddedNode {
  private store: EmbeddedEventStore | undefined;
  private dir: string | undefined;
  readonly certs = { root: undefined };

  async up(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'tagtrail-client-suite-'));
    this.store = await startEmbeddedEventStore({ dataDir: this.dir, port: 0, logger: testLogger() });
  }

  get uri(): string {
    return `127.0.0.1:${this.store?.port ?? 0}`;
  }

  connectionString(): string {
    return this.store?.connectionString ?? '';
  }

  async down(): Promise<void> {
    // The store first: it ends the clients' open calls, which their dispose would otherwise wait for.
    await this.store?.close();
    const open = [...clients];
    clients.clear();
    // A read a test left by `break` never finishes on the client's side, and its
    // dispose waits for every read to finish: bounded, as the calls are gone with the store.
    for (const c of open) await Promise.race([c.dispose(), delay(1000)]);
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

export const createTestNode = (): EmbeddedNode => new EmbeddedNode();

export interface TestEventData {
  message: 'test';
  index: number;
}

export const jsonTestEvents = (count = 4, type = 'test'): EventData[] =>
  Array.from({ length: count }, (_, i) => jsonEvent({ type, data: { message: 'test', index: i } }));

export const binaryTestEvents = (count = 4, type = 'test'): EventData[] =>
  Array.from({ length: count }, (_, i) => binaryEvent({ type, data: Buffer.from(`hello: ${i}`) }));

export async function collect<T extends StreamingRead<unknown>, E = T extends StreamingRead<infer X> ? X : unknown>(stream: T): Promise<E[]> {
  const out: unknown[] = [];
  for await (const e of stream) out.push(e);
  return out as E[];
}

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A promise with its resolve and reject at hand. */
export class Defer {
  resolve!: () => void;
  reject!: (reason?: string | Error) => void;
  readonly promise: Promise<void>;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.reject = reject;
      this.resolve = resolve;
    });
  }
}

/**
 * Appends a JSON event to `stream` and, to `linkStream`, the link a
 * projection's linkTo writes for it in EventStoreDB: type `$>`, data
 * `<revision>@<stream>`, metadata naming the event it was caused by.
 */
export async function appendWithLink(client: Client, stream: string, linkStream: string, event: { type: string; data: JSONType }): Promise<void> {
  const id = randomUUID();
  const { nextExpectedRevision } = await client.appendToStream(stream, jsonEvent({ id, ...event }));
  const link = { type: '$>', data: Buffer.from(`${nextExpectedRevision}@${stream}`), metadata: Buffer.from(JSON.stringify({ $causedBy: id })) };
  await client.appendToStream(linkStream, binaryEvent(link));
}
