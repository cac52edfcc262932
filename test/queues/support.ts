// What the queue tests share: a plain amqplib consumer (as a client of the
// interface would consume a queue), ItemChange fixtures and a writer of
// ItemsChanged events on ENGINE_STREAM (the engine's contract), so filters can
// be checked on exactly chosen changes.
import * as amqp from 'amqplib';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import { loadConfigOrThrow } from '../../src/config';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import type { ItemChange } from '../../src/engine';
import { QUEUE_ARGUMENTS } from '../../src/queues/model';
import { waitFor } from '../support/wait';
import { connectAmqp } from '../../src/core/amqp/connect';
import { createLogger } from '../../src/core/logger';
import { ConfirmPublisher } from '../../src/queues/publisher';

export const AMQP_URL = loadConfigOrThrow({}).amqpUrl;

export interface Received {
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly messageId: string;
  readonly deliveryMode: number | undefined;
  readonly receivedAt: number;
}

export interface Consumer {
  readonly messages: Received[];
  /** Waits until `n` messages arrived (throws with what arrived after `timeoutMs`). */
  until(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Distinct messageIds received. */
  ids(): Set<string>;
  close(): Promise<void>;
}

/** Consumes `queue` the way existing clients do: declare it with the same arguments, consume by name, JSON.parse. */
export async function consume(queue: string, url = AMQP_URL): Promise<Consumer> {
  const conn = await amqp.connect(url);
  const ch = await conn.createChannel();
  await ch.assertQueue(queue, { durable: true, arguments: { ...QUEUE_ARGUMENTS } });
  const messages: Received[] = [];
  await ch.consume(queue, (msg) => {
    if (!msg) return;
    messages.push({ body: JSON.parse(msg.content.toString('utf8')), messageId: String(msg.properties.messageId), deliveryMode: msg.properties.deliveryMode as number | undefined, receivedAt: Date.now() });
    ch.ack(msg);
  });
  return {
    messages,
    async until(n, timeoutMs = 20_000) {
      await waitFor(`${queue} to get ${n} messages`, () => messages.length >= n, { timeoutMs, intervalMs: 50 }).catch(() => {
        throw new Error(`${queue}: ${messages.length} of ${n} messages: ${JSON.stringify(messages.map((m) => m.body))}`);
      });
      return messages;
    },
    ids: () => new Set(messages.map((m) => m.messageId)),
    async close() {
      await conn.close().catch(() => undefined);
    },
  };
}

export const T0 = Date.parse('2024-03-01T08:00:00.000Z');

export const change = (over: Partial<ItemChange> = {}): ItemChange => ({
  kind: 'ZONE_CHANGE',
  epc: 'E2800000000000000000AAAA',
  tid: null,
  jobId: 'job-a',
  fromZone: 'DOCK',
  toZone: 'SHELF',
  fromFloor: '1',
  toFloor: '1',
  fromFacility: 'STORE',
  toFacility: 'STORE',
  fromX: 0,
  fromY: 0,
  toX: 1,
  toY: 0,
  observationTime: T0,
  reportToDatabaseEnabled: true,
  reportToHistoryEnabled: true,
  reportToMessageQueueEnabled: true,
  ...over,
});

/** Appends one ItemsChanged holding `changes`; returns its event id. */
export async function appendChanges(client: EventStoreDBClient, changes: ItemChange[]): Promise<string> {
  const id = crypto.randomUUID();
  await appendEvents(client, ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes } }, undefined, id)], 'any');
  return id;
}

/** The relay's publisher on its own connection, and a plain amqplib connection to read and clean up with. */
export interface PublisherFixture {
  readonly pub: ConfirmPublisher;
  readonly plain: amqp.ChannelModel;
  /** Deletes `queues` from the broker and closes both connections. */
  close(queues: readonly string[]): Promise<void>;
}

/** A small frameMax (4096), so bodies above it go as several body frames. */
export async function smallFramePublisher(name: string): Promise<PublisherFixture> {
  const logger = createLogger('test');
  const conn = await connectAmqp(`${AMQP_URL}${AMQP_URL.includes('?') ? '&' : '?'}frameMax=4096`, logger, 10_000, `tagtrail[test] ${name}`);
  const pub = new ConfirmPublisher(conn.model, logger, { confirmTimeoutMs: 20_000 });
  const plain = await amqp.connect(AMQP_URL);
  return {
    pub,
    plain,
    async close(queues) {
      const ch = await plain.createChannel();
      for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
      await plain.close().catch(() => undefined);
      await pub.stop();
      await conn.close();
    },
  };
}
