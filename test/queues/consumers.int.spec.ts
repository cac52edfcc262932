// Every public consumer of the item queues reads the relay's messages
// unchanged: the relay's own publish path (frames.ts through the confirm
// publisher, on a connection with a small frameMax so large bodies span
// several frames) against the machine's RabbitMQ, read by
//  - the AMQP library of the public Node client (`amqp` 0.2, node-amqp), used
//    as that client uses it: queue opened without a declare, `subscribe`,
//    then `JSON.parse(message.data)`;
//  - amqplib: `consume`, then `JSON.parse(content)`;
//  - pika, the Python client, in a real python3 process
//    (consumers/pika_consume.py): `json.loads(body)`.
// Each reads the same messages, in order, equal to what was published.
import type * as amqplib from 'amqplib';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'chai';
import type { OutMessage } from '../../src/queues/publisher';
import { itemMessageBody } from '../../src/queues/match';
import { QUEUE_ARGUMENTS } from '../../src/queues/model';
import { AMQP_URL, change, smallFramePublisher, T0, type PublisherFixture } from './support';
import { waitFor, withTimeout } from '../support/wait';

/** The part of node-amqp 0.2's API the Node client uses (the package ships no typings). */
interface NodeAmqpMessage {
  readonly data?: unknown;
}
interface NodeAmqpQueue {
  subscribe(listener: (message: NodeAmqpMessage, headers: unknown, deliveryInfo: { contentType?: string; messageId?: string }) => void): void;
}
interface NodeAmqpConnection {
  on(event: 'ready', f: () => void): void;
  on(event: 'error', f: (err: Error) => void): void;
  on(event: 'close', f: () => void): void;
  queue(name: string, options: object, ready: (q: NodeAmqpQueue) => void): void;
  disconnect(): void;
  end(): void;
}
interface NodeAmqp {
  createConnection(options: object, implOptions: object): NodeAmqpConnection;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- node-amqp has no typings; typed by the interface above
const nodeAmqp = require('amqp') as NodeAmqp;

const PIKA_SCRIPT = join(__dirname, 'consumers', 'pika_consume.py');
// Debian's interpreter, the one its python3-pika package (installed by
// scripts/ensure-services.sh) serves; a python3 earlier on PATH may lack pika.
const PYTHON = '/usr/bin/python3';

interface Read {
  readonly body: unknown;
  readonly messageId: string | undefined;
}

describe('queues: public consumer libraries read the messages unchanged', function () {
  this.timeout(60_000);
  let fixture: PublisherFixture | undefined;
  let plain: amqplib.ChannelModel | undefined;
  const run = randomUUID();
  const queueOf = (consumer: string): string => `tagtrail.test.consumers.${consumer}.${run}`;
  const queues = ['node-amqp', 'amqplib', 'pika'].map(queueOf);

  // Item messages as the relay builds them: an arrival (fromZone ABSENT,
  // null coordinates), a move with non-ASCII names, and one whose body is
  // larger than the connection's frameMax (4096).
  const changes = [
    change({ kind: 'FIRST_SEEN', fromZone: 'ABSENT', fromX: null, fromY: null, fromFloor: null, fromFacility: null }),
    change({ epc: 'E2800000000000000000BBBB', fromZone: 'Réception', toZone: 'Lager Süd', observationTime: T0 + 1000 }),
    change({ epc: 'E2800000000000000000CCCC', jobId: 'j'.repeat(200), toZone: 'Z'.repeat(5000), observationTime: T0 + 2000 }),
  ];
  const bodies = changes.map((c) => itemMessageBody(c));
  const messagesFor = (queue: string): OutMessage[] =>
    bodies.map((b, i) => ({ queue, body: Buffer.from(JSON.stringify(b)), messageId: `${run}:${i}`, persistent: i !== 1 }));
  // What a consumer should hand its application: the body as JSON decodes it.
  const expected: Read[] = bodies.map((b, i) => ({ body: JSON.parse(JSON.stringify(b)), messageId: `${run}:${i}` }));

  before(async () => {
    fixture = await smallFramePublisher('consumers');
    plain = fixture.plain;
    await fixture.pub.declare(queues);
    await (await fixture.pub.send(queues.flatMap(messagesFor))).confirmed;
  });
  after(async () => {
    await fixture?.close(queues);
  });

  it('node-amqp 0.2, as the public Node client subscribes: JSON.parse(message.data) gives every body', async () => {
    const connection = nodeAmqp.createConnection({ url: AMQP_URL }, { reconnect: false });
    const errors: Error[] = [];
    const reads: Read[] = [];
    const closed = new Promise<void>((resolve) => connection.on('close', resolve));
    connection.on('error', (err) => errors.push(err));
    try {
      await withTimeout(new Promise<void>((resolve) => connection.on('ready', resolve)), 15_000, 'node-amqp connection ready');
      // The client's queue options: no declare of its own, the service's arguments.
      const queue = await withTimeout(
        new Promise<NodeAmqpQueue>((resolve) => connection.queue(queueOf('node-amqp'), { durable: true, noDeclare: true, arguments: { ...QUEUE_ARGUMENTS } }, resolve)),
        15_000,
        'node-amqp queue',
      );
      queue.subscribe((message, _headers, info) => {
        try {
          // Exactly the client's decoding: a non-string `data` is turned into text by JSON.parse.
          reads.push({ body: JSON.parse(message.data as string), messageId: info.messageId });
        } catch (err) {
          errors.push(err as Error);
        }
      });
      await waitFor(`${expected.length} messages through node-amqp (errors: ${errors.map(String).join('; ')})`, () => reads.length + errors.length >= expected.length || undefined);
      expect(errors.map(String)).to.deep.equal([]);
      expect(reads).to.deep.equal(expected);
    } finally {
      connection.disconnect();
      await withTimeout(closed, 10_000, 'node-amqp connection closed').catch(() => connection.end());
    }
  });

  it('amqplib: JSON.parse(content) gives every body, with the JSON content type', async () => {
    const ch = await plain!.createChannel();
    const reads: Read[] = [];
    const contentTypes = new Set<unknown>();
    try {
      await ch.consume(
        queueOf('amqplib'),
        (m) => {
          if (!m) return;
          contentTypes.add(m.properties.contentType);
          reads.push({ body: JSON.parse(m.content.toString('utf8')), messageId: m.properties.messageId as string | undefined });
        },
        { noAck: true },
      );
      await waitFor(`${expected.length} messages through amqplib`, () => reads.length >= expected.length || undefined);
      expect(reads).to.deep.equal(expected);
      expect([...contentTypes]).to.deep.equal(['application/json; charset=utf-8']);
    } finally {
      await ch.close();
    }
  });

  it('pika (python3): json.loads(body) gives every body, with message id and delivery mode', async () => {
    const child = spawn(PYTHON, [PIKA_SCRIPT, AMQP_URL, queueOf('pika'), String(expected.length), '30'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const code = await withTimeout(new Promise<number | null>((resolve) => child.on('close', resolve)), 45_000, 'the pika consumer to end').finally(() => child.kill());
    expect(code, `pika consumer exit code (stderr: ${stderr})`).to.equal(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { body: unknown; messageId: string; contentType: string; deliveryMode: number });
    expect(lines.map((l) => ({ body: l.body, messageId: l.messageId }))).to.deep.equal(expected);
    expect(lines.map((l) => l.deliveryMode)).to.deep.equal([2, 1, 2]);
    expect(new Set(lines.map((l) => l.contentType))).to.deep.equal(new Set(['application/json; charset=utf-8']));
  });
});
