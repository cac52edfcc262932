// Gives contract tests an event store: a real EventStoreDB/KurrentDB when
// EVENTSTORE_CONNECTION_STRING is set, else the embedded server on a free
// port in a throw-away data directory. Tests only ever talk to it through
// the unmodified @eventstore/db-client, so the same suite judges both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
import { startEmbeddedEventStore } from '../../src/eventstore/server';
import type { Logger, LogFields } from '../../src/core/logger';

export interface TestEventStore {
  readonly client: EventStoreDBClient;
  readonly connectionString: string;
  /** True when the embedded server runs in this process. */
  readonly embedded: boolean;
  /** Data directory of the embedded server (undefined against a real server). */
  readonly dataDir: string | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Reuse this directory instead of a fresh temp dir (it is then not removed on close). */
  dataDir?: string;
  maxAppendSize?: number;
}

export function realServerConnectionString(): string | undefined {
  const cs = process.env['EVENTSTORE_CONNECTION_STRING'];
  return cs && cs.trim() !== '' ? cs.trim() : undefined;
}

export function isRealServer(): boolean {
  return realServerConnectionString() !== undefined;
}

// Quiet in tests, but server-side warnings and errors stay visible: they are
// often the only clue when a contract test fails.
export function testLogger(component = 'eventstore'): Logger {
  const emit = (level: string, msg: string, fields?: LogFields): void => {
    const extra = fields ? ' ' + safeJson(fields) : '';
    process.stderr.write(`[${component}] ${level}: ${msg}${extra}\n`);
  };
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (sub) => testLogger(`${component}.${sub}`),
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'bigint' ? x.toString() : x instanceof Error ? { message: x.message, stack: x.stack } : x,
    );
  } catch {
    return String(v);
  }
}

export async function startTestEventStore(opts: StartOptions = {}): Promise<TestEventStore> {
  const real = realServerConnectionString();
  if (real !== undefined) {
    const client = EventStoreDBClient.connectionString(real);
    return {
      client,
      connectionString: real,
      embedded: false,
      dataDir: undefined,
      // The shared server is not ours to stop; only release our connection.
      close: async () => {
        await client.dispose();
      },
    };
  }

  const ownsDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-es-'));
  let server;
  try {
    server = await startEmbeddedEventStore({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      logger: testLogger(),
      ...(opts.maxAppendSize !== undefined ? { maxAppendSize: opts.maxAppendSize } : {}),
    });
  } catch (err) {
    if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const client = EventStoreDBClient.connectionString(server.connectionString);
  let closed = false;
  const running = server;
  return {
    client,
    connectionString: running.connectionString,
    embedded: true,
    dataDir,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.dispose();
      } finally {
        try {
          await running.close();
        } finally {
          if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    },
  };
}

export interface EventStoreFixture {
  readonly store: TestEventStore;
  readonly client: EventStoreDBClient;
}

/**
 * Registers mocha before/after hooks in the calling describe block: one event
 * store for the whole block, closed afterwards.
 */
export function withEventStore(opts: StartOptions = {}): EventStoreFixture {
  let store: TestEventStore | undefined;
  before(async function () {
    this.timeout(60_000);
    store = await startTestEventStore(opts);
  });
  after(async function () {
    this.timeout(30_000);
    const s = store;
    store = undefined;
    if (s) await s.close();
  });
  return {
    get store(): TestEventStore {
      if (!store) throw new Error('event store not started (withEventStore hooks did not run)');
      return store;
    },
    get client(): EventStoreDBClient {
      return this.store.client;
    },
  };
}

/** A stream name no other test (nor another run against a shared server) uses. */
export function uniqueStream(prefix = 'contract'): string {
  return `${prefix}-${randomUUID()}`;
}

/** A short identifier that is safe inside stream names, event types and regexes. */
export function uniqueToken(): string {
  return randomUUID().replace(/-/g, '');
}

/** host:port of the first node of an esdb:// connection string. */
export function endpointOf(connectionString: string): { address: string; port: number; tls: boolean } {
  const m = /^esdb(?:\+discover)?:\/\/(?:[^@/]*@)?([^,/?]+)/i.exec(connectionString);
  if (!m || !m[1]) throw new Error(`cannot parse connection string ${connectionString}`);
  const hostPort = m[1];
  const idx = hostPort.lastIndexOf(':');
  const address = idx >= 0 ? hostPort.slice(0, idx) : hostPort;
  const port = idx >= 0 ? Number.parseInt(hostPort.slice(idx + 1), 10) : 2113;
  const tls = !/[?&]tls=false(?:&|$)/i.test(connectionString);
  return { address, port, tls };
}
