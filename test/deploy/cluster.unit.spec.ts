// deploy/cluster/compose.yml, the scaled-out layout (docs/scaling.md), checked
// the way `docker compose config` would and beyond (docker compose is not on
// this machine or CI): it parses (anchors and merge keys resolved), every
// service has an image or a build, every dependency, named volume and mounted
// file exists; the layout has its 3 event store nodes, Redis primary +
// replica + 3 Sentinels, 3 RabbitMQ nodes, 2 api, 2 engine processes that
// together own every partition, 1 projections and 1 relay; every tagtrail
// service's environment is a valid configuration (src/config.ts); the load
// balancer sends HTTP to exactly the api processes and Redis to the nodes
// Sentinel watches.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isRight } from 'fp-ts/Either';
import { load } from 'js-yaml';
import { loadConfig, type Config } from '../../src/config';

const DIR = path.resolve(__dirname, '..', '..', 'deploy', 'cluster');
// `${VAR:-default}` -> default: what `docker compose up` uses with no variables set.
const withDefaults = (text: string): string => text.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
  volumes?: string[];
  command?: string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** YAML merge keys (`<<: *anchor`) as compose resolves them: the anchor's members, then the mapping's own over them. */
function resolveMerges(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolveMerges);
  if (node === null || typeof node !== 'object') return node;
  const own = Object.entries(node as Record<string, unknown>);
  const merged: Record<string, unknown> = {};
  for (const [k, v] of own) {
    if (k !== '<<') continue;
    for (const base of Array.isArray(v) ? v : [v]) Object.assign(merged, resolveMerges(base) as Record<string, unknown>);
  }
  for (const [k, v] of own) if (k !== '<<') merged[k] = resolveMerges(v);
  return merged;
}

const compose = resolveMerges(load(withDefaults(readFileSync(path.join(DIR, 'compose.yml'), 'utf8')))) as Compose;
const services = compose.services;
const names = Object.keys(services);
const tagtrail = names.filter((n) => services[n]?.build !== undefined);
const configOf = (name: string): Config => {
  const result = loadConfig(services[name]?.environment ?? {});
  if (!isRight(result)) throw new Error(`${name}: ${JSON.stringify(result.left)}`);
  return result.right;
};
const withRole = (role: string): string[] => tagtrail.filter((n) => configOf(n).roles.join(',') === role);

describe('deploy/cluster/compose.yml', () => {
  it('is a compose file whose services, dependencies, volumes and mounted files all exist', () => {
    expect(names.length).to.be.above(0);
    for (const [name, s] of Object.entries(services)) {
      expect(s.image !== undefined || s.build !== undefined, `${name}: image or build`).to.equal(true);
      for (const dep of Object.keys(s.depends_on ?? {})) expect(names, `${name} depends on ${dep}`).to.include(dep);
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0] ?? '';
        if (source.startsWith('.')) expect(existsSync(path.resolve(DIR, source)), `${name} mounts ${source}`).to.equal(true);
        else expect(Object.keys(compose.volumes ?? {}), `${name}: volume ${source} declared`).to.include(source);
      }
    }
    if (services['engine0']?.build !== undefined) expect(existsSync(path.resolve(DIR, services['engine0'].build, 'Dockerfile'))).to.equal(true);
  });

  it('has the cluster layout: 3 event store nodes, Redis primary + replica + 3 Sentinels, 3 RabbitMQ nodes, 2 api, 2 engines, 1 projections, 1 relay, a load balancer', () => {
    const by = (image: string): string[] => names.filter((n) => services[n]?.image?.startsWith(image) === true);
    expect(by('eventstore/eventstore')).to.have.length(3);
    expect(by('rabbitmq:')).to.have.length(3);
    expect(names.filter((n) => services[n]?.command?.some((c) => c.includes('redis-sentinel')) === true)).to.have.length(3);
    expect(names.filter((n) => services[n]?.command?.includes('redis-server') === true)).to.have.length(2);
    expect(services['redis-replica']?.command).to.include('--replicaof');
    expect(by('haproxy')).to.deep.equal(['lb']);
    expect(withRole('api')).to.have.length(2);
    expect(withRole('engine')).to.have.length(2);
    expect(withRole('projections')).to.have.length(1);
    expect(withRole('relay')).to.have.length(1);
  });

  it('gives every tagtrail process a valid configuration: the event store cluster by its gossip seeds, quorum queues, shared keys', () => {
    const esNodes = names.filter((n) => services[n]?.image?.startsWith('eventstore/') === true);
    for (const n of esNodes) expect(services[n]?.environment?.['EVENTSTORE_GOSSIP_SEED']).to.equal(esNodes.map((e) => `${e}:2113`).join(','));
    for (const n of tagtrail) {
      const c = configOf(n);
      expect(c.eventStore.connectionString, n).to.equal(`esdb+discover://${esNodes.map((e) => `${e}:2113`).join(',')}?tls=false`);
      expect(c.amqpQueueType, n).to.equal('quorum');
      expect(c.pageMarkerKey, n).to.be.a('string');
      expect(c.readerSecretKey, n).to.be.a('string');
      expect(c.enginePartitions.count, n).to.equal(2);
    }
    // The engine processes may each own every partition: either takes over the other's.
    const owned = withRole('engine').map((n) => configOf(n).enginePartitions.owned);
    for (const o of owned) expect(o).to.deep.equal([0, 1]);
  });

  it('load-balances HTTP over exactly the api processes and follows the Redis primary Sentinel watches', () => {
    const cfg = readFileSync(path.join(DIR, 'haproxy.cfg'), 'utf8');
    const backends = new Map<string, string[]>();
    let current = '';
    for (const line of cfg.split('\n')) {
      const b = /^backend\s+(\S+)/.exec(line);
      if (b) current = b[1] ?? '';
      const s = /^\s+server\s+\S+\s+([^:\s]+):\d+/.exec(line);
      if (s && current) backends.set(current, [...(backends.get(current) ?? []), s[1] ?? '']);
    }
    expect(backends.get('api')).to.deep.equal(withRole('api'));
    expect(backends.get('redis-primary')).to.deep.equal(['redis-primary', 'redis-replica']);
    expect(backends.get('rabbitmq')).to.deep.equal(['rabbit1', 'rabbit2', 'rabbit3']);
    for (const hosts of backends.values()) for (const h of hosts) expect(names, `haproxy server ${h}`).to.include(h);
    for (const n of tagtrail) expect(configOf(n).redisUrl, n).to.equal('redis://lb:6379');
    const sentinel = readFileSync(path.join(DIR, 'sentinel.conf'), 'utf8');
    expect(/sentinel monitor tagtrail (\S+) 6379 2/.exec(sentinel)?.[1]).to.equal('redis-primary');
    const cluster = readFileSync(path.join(DIR, 'rabbitmq-cluster.conf'), 'utf8');
    expect([...cluster.matchAll(/= rabbit@(\S+)/g)].map((m) => m[1])).to.deep.equal(['rabbit1', 'rabbit2', 'rabbit3']);
  });
});
