// docker-compose.yml beside a local `npm start`: the host ports it publishes
// must not be those the local path uses, and queue clients (outside Docker)
// must be told a broker address they can reach, on the port published.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const compose = readFileSync(path.resolve(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
// `${VAR:-default}` -> default: what `docker compose up` uses with no variables set.
const withDefaults = compose.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
const LOCAL_PORTS = [8080, 6379, 5672, 15672, 2113];

describe('docker-compose.yml', () => {
  const published = [...withDefaults.matchAll(/^\s*-\s*"(\d+):(\d+)"\s*$/gm)].map((m) => ({ host: Number(m[1]), container: Number(m[2]) }));

  it('publishes the REST interface and the broker, on host ports a local npm start does not use', () => {
    expect(published.map((p) => p.container).sort()).to.deep.equal([15672, 5672, 8080]);
    for (const p of published) expect(LOCAL_PORTS, `host port ${p.host}`).to.not.include(p.host);
  });

  it('tells queue clients a host they can resolve and the published AMQP port', () => {
    const publicHost = /AMQP_PUBLIC_HOST:\s*"([^"]+)"/.exec(withDefaults)?.[1];
    const publicPort = Number(/AMQP_PUBLIC_PORT:\s*"([^"]+)"/.exec(withDefaults)?.[1]);
    expect(publicHost).to.equal('localhost');
    expect(publicPort).to.equal(published.find((p) => p.container === 5672)?.host);
  });
});
