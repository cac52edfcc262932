// Clients log in to a real RabbitMQ node with their tagtrail credentials. A
// dedicated node (spare ports, temporary directory) runs the repository's
// deploy/rabbitmq/tagtrail-auth.conf pointed at an in-process tagtrail whose
// own AMQP connection (guest, internal backend) uses that node too; the
// machine's shared node at 5672 is not touched. Proves: a DataReader consumes
// the queue it configured through the REST interface (after the passive and
// the equivalent redeclare existing clients make); a wrong password, an
// unknown user and a user without DataReader/Admin are refused; the
// DataReader can neither publish nor declare other queues or exchanges.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as amqp from 'amqplib';
import { startTestApp, type TestApp } from '../support/app';
import { givenReaderWithQueue } from './support';
import { findRabbitTools, sparePort, startRabbitNode, type RabbitNode } from './rabbitmq-node';
import { sleep } from '../support/wait';

// The arguments existing clients redeclare their queue with (docs/interface.md, "AMQP queues").
const QUEUE_ARGS = { 'x-expires': 3600000, 'x-message-ttl': 3600000, 'x-max-length-bytes': 1073741824 };

/** The shipped fragment, pointed at the test's tagtrail and listening on the node's spare port only. */
function nodeConfig(tagtrailOrigin: string): string {
  const shipped = readFileSync(join(__dirname, '../../deploy/rabbitmq/tagtrail-auth.conf'), 'utf8');
  expect(shipped).to.contain('http://tagtrail:8080/rabbitmq/auth/');
  return `${shipped.replaceAll('http://tagtrail:8080', tagtrailOrigin)}\nlisteners.tcp.1 = 127.0.0.1:{{PORT}}\n`;
}

/** The error a promise rejects with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  return expect.fail('expected a rejection');
}

describe('broker authentication against a dedicated RabbitMQ node', function () {
  this.timeout(300_000);
  let app: TestApp | undefined;
  let node: RabbitNode | undefined;
  /** The queue the DataReader configures through the REST interface. */
  let queue: string;
  const open: amqp.ChannelModel[] = [];
  const connect = async (user: string, password: string): Promise<amqp.ChannelModel> => {
    const conn = await amqp.connect(node!.url(user, password));
    conn.on('error', () => undefined); // channel/connection errors are asserted where they matter
    open.push(conn);
    return conn;
  };

  before(async function () {
    const tools = findRabbitTools();
    if (!tools) {
      console.log('    (skipped: rabbitmq-server is not installed, so no dedicated RabbitMQ node can be started)');
      this.skip();
    }
    // The node asks tagtrail over HTTP, tagtrail connects to the node: fix tagtrail's port first.
    const appPort = await sparePort();
    node = await startRabbitNode(tools!, { config: nodeConfig(`http://127.0.0.1:${appPort}`), plugins: ['rabbitmq_auth_backend_http'] });
    app = await startTestApp({ PORT: String(appPort), AMQP_URL: node.url('guest', 'guest') });
    queue = await givenReaderWithQueue(app);
  });

  after(async () => {
    for (const conn of open) await conn.close().catch(() => undefined);
    try {
      await app?.stop();
    } finally {
      await node?.stop();
    }
  });

  it('tagtrail declared the configured queue on the node; its service user (internal backend) may publish to it', async () => {
    const service = await connect('guest', 'guest');
    const ch = await service.createConfirmChannel();
    expect((await ch.checkQueue(queue)).messageCount).to.equal(0);
    ch.sendToQueue(queue, Buffer.from(JSON.stringify({ epc: 'E280', toZone: 'Z1' })), { persistent: true, messageId: 'm-1' });
    await ch.waitForConfirms();
    await ch.close();
  });

  it('a DataReader logs in with its tagtrail password, redeclares its queue as existing clients do, and consumes the message', async () => {
    const conn = await connect('reader', 'reader-passphrase');
    const ch = await conn.createChannel();
    const passive = await ch.checkQueue(queue);
    expect(passive.messageCount).to.equal(1);
    // Non-passive, same durable flag and arguments: needs (and gets) configure on the queue.
    await ch.assertQueue(queue, { durable: true, arguments: QUEUE_ARGS });
    const received = await new Promise<amqp.ConsumeMessage>((resolve, reject) => {
      ch.consume(queue, (msg) => (msg ? resolve(msg) : reject(new Error('consumer cancelled'))), { noAck: false }).catch(reject);
    });
    expect(JSON.parse(received.content.toString())).to.deep.equal({ epc: 'E280', toZone: 'Z1' });
    expect(received.properties.messageId).to.equal('m-1');
    ch.ack(received);
    await ch.close();
  });

  it('refuses a wrong password and an unknown user', async () => {
    for (const [user, password] of [['reader', 'wrong'], ['nobody', 'reader-passphrase']] as const) {
      const err = await rejection(connect(user, password));
      expect(err.message).to.match(/ACCESS_REFUSED|403/);
    }
  });

  it('refuses a user with the right password but neither DataReader nor Admin', async () => {
    const err = await rejection(connect('config', 'config-passphrase'));
    expect(err.message).to.match(/ACCESS_REFUSED|403/);
  });

  describe('a DataReader may not configure or write anything else', () => {
    /** Runs `action` on a fresh channel of the reader and returns the channel error it ends with. */
    async function refusedOnChannel(action: (ch: amqp.Channel) => Promise<unknown>): Promise<string> {
      const conn = await connect('reader', 'reader-passphrase');
      const ch = await conn.createChannel();
      const closed = new Promise<string>((resolve) => {
        ch.once('error', (err: Error) => resolve(err.message));
        ch.once('close', () => resolve('closed without error'));
      });
      await action(ch).catch(() => undefined);
      return closed;
    }

    it('cannot publish to its queue (default exchange) nor to amq.topic', async () => {
      const toQueue = await refusedOnChannel(async (ch) => {
        ch.sendToQueue(queue, Buffer.from('x'));
        await ch.checkQueue(queue); // a round trip, so the refusal arrives
      });
      expect(toQueue).to.match(/ACCESS_REFUSED/);
      const toTopic = await refusedOnChannel(async (ch) => {
        ch.publish('amq.topic', 'a.b', Buffer.from('x'));
        await ch.checkQueue(queue);
      });
      expect(toTopic).to.match(/ACCESS_REFUSED/);
    });

    it('cannot declare a queue outside tagtrail client queues, nor an exchange, nor delete an exchange', async () => {
      expect(await refusedOnChannel((ch) => ch.assertQueue('orders', { durable: true }))).to.match(/ACCESS_REFUSED/);
      // A client queue name tagtrail never configured: declaring it would create a queue.
      const unconfigured = queue.replace(/[0-9a-f]{12}$/, '000000000000');
      expect(await refusedOnChannel((ch) => ch.assertQueue(unconfigured, { durable: true, arguments: QUEUE_ARGS }))).to.match(/ACCESS_REFUSED/);
      expect(await refusedOnChannel((ch) => ch.assertExchange('tagtrail.x', 'fanout'))).to.match(/ACCESS_REFUSED/);
      expect(await refusedOnChannel((ch) => ch.deleteExchange('amq.fanout'))).to.match(/ACCESS_REFUSED/);
    });

    it('cannot bind its queue to an exchange', async () => {
      expect(await refusedOnChannel((ch) => ch.bindQueue(queue, 'amq.topic', '#'))).to.match(/ACCESS_REFUSED/);
    });

    it('cannot open another (existing) virtual host', async () => {
      node!.ctl(['add_vhost', 'other']);
      const err = await rejection(amqp.connect(node!.url('reader', 'reader-passphrase').replace(/\/%2F$/, '/other')));
      // amqplib's error names no reason; the node's log does.
      expect(err.message).to.contain('ConnectionClose');
      // RabbitMQ writes its log file with a delay.
      const wanted = "access to vhost 'other' refused for user 'reader'";
      for (let i = 0; i < 50 && !node!.logTail(1000).includes(wanted); i++) await sleep(200);
      expect(node!.logTail(1000)).to.contain(wanted);
    });
  });
});
