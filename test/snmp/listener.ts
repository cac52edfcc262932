// An SNMP manager for tests: a UDP socket on a free port of 127.0.0.1 that
// keeps every notification it receives, decoded (./ber.ts); it never answers.
import { createSocket, type Socket } from 'node:dgram';
import { decodeNotification, type DecodedNotification } from './ber';
import { waitForValue } from '../support/wait';

export class Listener {
  readonly received: Array<{ packet: Buffer; n: DecodedNotification }> = [];
  private constructor(readonly socket: Socket, readonly port: number) {}
  static async open(): Promise<Listener> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const l = new Listener(socket, socket.address().port);
    socket.on('message', (packet) => l.received.push({ packet, n: decodeNotification(packet) }));
    return l;
  }
  async waitFor(count: number, timeoutMs = 10_000): Promise<DecodedNotification[]> {
    await waitForValue(`${count} notifications`, () => this.received.length, (n) => n >= count, { timeoutMs, intervalMs: 25 });
    return this.received.map((r) => r.n);
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
