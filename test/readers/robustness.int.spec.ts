// What an LLRP reader sends that tagtrail does not know or cannot read is
// ignored (a log line), never a crash and never the end of the connection:
// a vendor's CUSTOM_MESSAGE, an unknown message type, a reader event that
// does not decode, a report with an unknown TV parameter; the link still
// answers KEEPALIVE. A reader played byte by byte here, on loopback.
import net from 'node:net';
import { expect } from 'chai';
import { createClient } from 'redis';
import { loadConfigOrThrow } from '../../src/config';
import { MSG } from '../../src/llrp/constants';
import { encodeMessage, LlrpFramer } from '../../src/llrp/frame';
import { capabilitiesResponse, readerEventNotification, statusMessage } from '../../src/llrp/messages';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import type { AppDeps } from '../../src/slice';
import { jobsForAgents } from '../../src/jobs/agents';
import { LlrpLink } from '../../src/readers/llrp-link';
import { DEFAULT_READERS_SETTINGS } from '../../src/readers/settings';
import { until } from './support';
import { silent } from '../support/logger';
import type { Logger } from '../../src/core/logger';

describe('readers: what an LLRP reader sends that tagtrail does not know', function () {
  this.timeout(30_000);
  const prefix = `tagtrail-test-${crypto.randomUUID()}:`;
  let redis: RedisClient;
  let server: net.Server;
  let link: LlrpLink | undefined;
  const fromHost: number[] = [];
  const acks: number[] = [];
  let socket: net.Socket | undefined;

  before(async () => {
    redis = createClient({ url: loadConfigOrThrow({}).redisUrl }) as unknown as RedisClient;
    await redis.connect();
    server = net.createServer((s) => {
      socket = s;
      const framer = new LlrpFramer();
      s.on('data', (chunk: Buffer) => {
        for (const m of framer.push(chunk)) {
          fromHost.push(m.type);
          if (m.type === MSG.GET_READER_CAPABILITIES) s.write(capabilitiesResponse(m.id, { maxAntennas: 2, manufacturer: 161, model: 1, firmware: 'fx-3.1', transmitPower: [{ index: 1, dbm: 30 }], rfModes: [0] }));
          else if (m.type === MSG.KEEPALIVE_ACK) acks.push(m.id);
          else if (m.type === MSG.SET_READER_CONFIG || m.type === MSG.DELETE_ROSPEC) s.write(statusMessage(m.type + 10, m.id, 0));
          else if (m.type === MSG.CLOSE_CONNECTION) s.end(statusMessage(MSG.CLOSE_CONNECTION_RESPONSE, m.id, 0));
        }
      });
      s.on('error', () => undefined);
      s.write(readerEventNotification(0, Date.now() * 1000, { kind: 'connectionAttempt', status: 0 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  });
  after(async () => {
    await link?.stop();
    socket?.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length) await redis.del(keys);
    await redis.quit();
  });

  it('ignores them and keeps the connection, answering KEEPALIVE', async () => {
    // A rejection nobody handles would end the service (its crash handler): none may occur.
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await exchange();
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled.map(String)).to.deep.equal([]);
  });

  it('a reader that goes silent: the link is dropped after 3 keepalive periods, and the reason says keepalives were missed', async () => {
    await link?.stop();
    const warnings: Array<Record<string, unknown>> = [];
    const logger: Logger = { ...silent, warn: (msg: string, fields?: Record<string, unknown>) => void warnings.push({ msg, ...fields }), child: () => logger };
    const deps = { redis, keys: new RedisKeys(prefix), logger } as unknown as AppDeps;
    const port = (server.address() as net.AddressInfo).port;
    // The reader here answers the host sequence and then sends nothing at all, no KEEPALIVE either.
    link = new LlrpLink({ name: 'fx-2', host: '127.0.0.1', port, tls: null }, { deps, jobs: jobsForAgents, settings: { ...DEFAULT_READERS_SETTINGS, keepaliveMs: 200 }, logger, leaseKey: `${prefix}lease-2` });
    link.start();
    const lost = await until('the link dropped', async () => warnings.find((w) => w['msg'] === 'reader connection lost or refused'));
    expect(String(lost['reason'])).to.match(/^connection lost: missed keepalives: nothing from the reader for 600 ms/);
  });

  async function exchange(): Promise<void> {
    const deps = { redis, keys: new RedisKeys(prefix), logger: silent } as unknown as AppDeps;
    const port = (server.address() as net.AddressInfo).port;
    link = new LlrpLink({ name: 'fx-1', host: '127.0.0.1', port, tls: null }, { deps, jobs: jobsForAgents, settings: { ...DEFAULT_READERS_SETTINGS, keepaliveMs: 5000 }, logger: silent, leaseKey: `${prefix}lease` });
    link.start();
    await until('connected', async () => (link?.state === 'connected' ? true : undefined));
    expect(fromHost.slice(0, 3)).to.deep.equal([MSG.GET_READER_CAPABILITIES, MSG.SET_READER_CONFIG, MSG.DELETE_ROSPEC]); // no Impinj extension for maker 161
    const s = socket as net.Socket;
    s.write(Buffer.concat([
      encodeMessage(MSG.CUSTOM_MESSAGE, 500, Buffer.from('0000270f07deadbeef', 'hex')), // another vendor's message
      encodeMessage(999, 501, Buffer.from('0102', 'hex')), // a message type LLRP does not define
      encodeMessage(MSG.READER_EVENT_NOTIFICATION, 502, Buffer.from('00f60008ffff', 'hex')), // event data whose parameter runs past it
      encodeMessage(MSG.RO_ACCESS_REPORT, 503, Buffer.from('00f00009fe00000000', 'hex')), // a TagReportData with an unknown TV type
      encodeMessage(MSG.KEEPALIVE, 77),
    ]));
    await until('KEEPALIVE answered', async () => (acks.includes(77) ? true : undefined));
    expect(link.state).to.equal('connected');
    expect(link.firmware).to.equal('fx-3.1');
  }
});
