// A TCP proxy in front of the machine's RabbitMQ for relay tests: it can
// refuse connections (only counting them) and it can hold back everything the
// broker sends (confirms included) while the client's frames still reach the
// broker, which is how a broker that is slow to confirm looks to the relay.
import net from 'node:net';
import { AMQP_URL } from './support';

export interface BrokerProxy {
  /** Client connections accepted so far. */
  readonly accepted: () => number;
  /** From now on, bytes from the broker are kept back (in order) until release(). */
  hold(): void;
  /** hold() as soon as a client sends its first basic.publish (after its handshake and declarations went through). */
  holdFromFirstPublish(): void;
  release(): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port`; with `forward`, connects each client to AMQP_URL's broker, otherwise closes it at once. */
export async function brokerProxy(port: number, forward: boolean): Promise<BrokerProxy> {
  const broker = new URL(AMQP_URL);
  const sockets = new Set<net.Socket>();
  const flows: Array<{ held: Buffer[]; client: net.Socket }> = [];
  let holding = false;
  let holdOnPublish = false;
  // Class 60 (basic), method 40 (publish) at the start of a method frame's payload.
  const PUBLISH = Buffer.from([0, 60, 0, 40]);
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (!forward) return void client.destroy();
    const upstream = net.connect(Number(broker.port || 5672), broker.hostname);
    sockets.add(upstream);
    const flow = { held: [] as Buffer[], client };
    flows.push(flow);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('data', (d: Buffer) => {
      if (holdOnPublish && d.includes(PUBLISH)) holding = true;
    });
    client.pipe(upstream);
    upstream.on('data', (d: Buffer) => (holding ? flow.held.push(d) : client.write(d)));
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    accepted: () => accepted,
    hold: () => void (holding = true),
    holdFromFirstPublish: () => void (holdOnPublish = true),
    release() {
      holding = false;
      holdOnPublish = false;
      for (const f of flows) for (const d of f.held.splice(0)) f.client.write(d);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** AMQP_URL with its host and port replaced by 127.0.0.1:`port`. */
export function urlOnPort(port: number): string {
  const u = new URL(AMQP_URL);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}
