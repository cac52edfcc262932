import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import {
  ConfigurationError,
  ROLES,
  eventStoreConnectionString,
  loadConfig,
  loadConfigOrThrow,
  type Config,
  type ConfigError,
} from '../src/config';

function ok(env: NodeJS.ProcessEnv): Config {
  const r = loadConfig(env);
  if (E.isLeft(r)) throw new Error(`expected a config, got ${JSON.stringify(r.left)}`);
  return r.right;
}

function errors(env: NodeJS.ProcessEnv): ConfigError[] {
  const r = loadConfig(env);
  if (E.isRight(r)) throw new Error('expected configuration errors, got a config');
  return r.left;
}

describe('config', () => {
  describe('defaults', () => {
    it('gives every documented default for an empty environment', () => {
      expect(ok({})).to.deep.equal({
        http: { host: '0.0.0.0', port: 8080, rootPath: '/itemsense' },
        dataDir: './data',
        eventStore: { connectionString: undefined, host: '127.0.0.1', port: 2113, maxAppendSize: 1_048_576 },
        redisUrl: 'redis://127.0.0.1:6379',
        redisKeyPrefix: 'tagtrail:',
        amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
        amqpPublic: { host: undefined, port: 5672 },
        queueRetirement: { idleMs: 604_800_000, checkEveryMs: 600_000 },
        epcisLocationBaseUrl: 'https://tagtrail.example/epcis/',
        roles: ROLES,
        logLevel: 'info',
        logSummaryIntervalMs: 60_000,
        shutdownTimeoutMs: 10_000,
        startupTimeoutMs: 30_000,
        adminPassword: undefined,
        readerSecretKey: undefined,
        engineSnapshots: { everyChanges: 100_000, everyMs: 300_000 },
        metricsPort: undefined,
      } satisfies Config);
    });

    it('treats blank values as unset', () => {
      expect(ok({ PORT: '', ROLES: '  ', EVENTSTORE_CONNECTION_STRING: '' }).http.port).to.equal(8080);
      expect(ok({ ROLES: '  ' }).roles).to.deep.equal(ROLES);
      expect(ok({ EVENTSTORE_CONNECTION_STRING: '' }).eventStore.connectionString).to.equal(undefined);
    });

    it('ignores unrelated variables', () => {
      expect(ok({ PATH: '/usr/bin', HOME: '/root' }).http.port).to.equal(8080);
    });
  });

  describe('valid values', () => {
    it('reads every variable', () => {
      const c = ok({
        PORT: '3000',
        HOST: '127.0.0.1',
        ROOT_PATH: '/api/v2/',
        DATA_DIR: '/var/lib/tagtrail',
        EVENTSTORE_CONNECTION_STRING: 'esdb://es:2113?tls=false',
        EVENTSTORE_HOST: '::1',
        EVENTSTORE_PORT: '0',
        EVENTSTORE_MAX_APPEND_SIZE: '4096',
        REDIS_URL: 'rediss://:pw@cache:6380/2',
        AMQP_URL: 'amqps://u:p@mq/%2F',
        AMQP_PUBLIC_HOST: 'mq.example.com',
        AMQP_PUBLIC_PORT: '5671',
        QUEUE_RETIRE_IDLE_MS: '0',
        QUEUE_IDLE_CHECK_MS: '60000',
        ROLES: 'api, Relay',
        LOG_LEVEL: 'WARN',
        LOG_SUMMARY_INTERVAL_MS: '5000',
        SHUTDOWN_TIMEOUT_MS: '500',
        STARTUP_TIMEOUT_MS: '2000',
        ADMIN_PASSWORD: 's3cret',
        REDIS_KEY_PREFIX: 'site-a:',
        ENGINE_SNAPSHOT_EVERY_CHANGES: '0',
        ENGINE_SNAPSHOT_INTERVAL_MS: '60000',
        METRICS_PORT: '9464',
        EPCIS_LOCATION_BASE_URL: 'https://ids.example.com/sites',
      });
      expect(c).to.deep.equal({
        http: { host: '127.0.0.1', port: 3000, rootPath: '/api/v2' },
        dataDir: '/var/lib/tagtrail',
        eventStore: { connectionString: 'esdb://es:2113?tls=false', host: '::1', port: 0, maxAppendSize: 4096 },
        redisUrl: 'rediss://:pw@cache:6380/2',
        redisKeyPrefix: 'site-a:',
        amqpUrl: 'amqps://u:p@mq/%2F',
        amqpPublic: { host: 'mq.example.com', port: 5671 },
        queueRetirement: { idleMs: 0, checkEveryMs: 60_000 },
        epcisLocationBaseUrl: 'https://ids.example.com/sites/',
        roles: ['api', 'relay'],
        logLevel: 'warn',
        logSummaryIntervalMs: 5000,
        shutdownTimeoutMs: 500,
        startupTimeoutMs: 2000,
        adminPassword: 's3cret',
        readerSecretKey: undefined,
        engineSnapshots: { everyChanges: 0, everyMs: 60_000 },
        metricsPort: 9464,
      } satisfies Config);
    });

    it('mounts at the root for ROOT_PATH=/', () => {
      expect(ok({ ROOT_PATH: '/' }).http.rootPath).to.equal('');
    });

    it('accepts esdb+discover connection strings', () => {
      const cs = 'esdb+discover://admin:changeit@cluster.local:2113?tls=true';
      expect(ok({ EVENTSTORE_CONNECTION_STRING: cs }).eventStore.connectionString).to.equal(cs);
    });
  });

  describe('ROLES', () => {
    it('deduplicates and orders roles canonically, case-insensitively', () => {
      expect(ok({ ROLES: 'relay,API,api,, eventstore ' }).roles).to.deep.equal(['api', 'eventstore', 'relay']);
    });

    it('accepts all', () => {
      expect(ok({ ROLES: 'all' }).roles).to.deep.equal(ROLES);
    });

    it('rejects an unknown role, naming it and the known ones', () => {
      const [e, ...rest] = errors({ ROLES: 'api,frontend' });
      expect(rest).to.have.length(0);
      expect(e?.variable).to.equal('ROLES');
      expect(e?.reason).to.contain('"frontend"');
      expect(e?.reason).to.contain('api, eventstore, engine, projections, relay, jobs');
    });

    it('rejects a list of only commas', () => {
      expect(errors({ ROLES: ',,' })[0]?.variable).to.equal('ROLES');
    });
  });

  describe('bad values', () => {
    const cases: Array<[string, string, string]> = [
      ['PORT', 'abc', 'expected an integer 0-65535'],
      ['PORT', '65536', 'expected an integer 0-65535'],
      ['PORT', '-1', 'expected an integer 0-65535'],
      ['PORT', '80.5', 'expected an integer 0-65535'],
      ['PORT', '1e3', 'expected an integer 0-65535'],
      ['HOST', 'http://x', 'expected a host name or IP address'],
      ['ROOT_PATH', 'itemsense', 'expected a URL path'],
      ['ROOT_PATH', '/item sense', 'expected a URL path'],
      ['EVENTSTORE_CONNECTION_STRING', 'http://es:2113', 'esdb://'],
      ['EVENTSTORE_HOST', 'a b', 'expected a host name'],
      ['EVENTSTORE_PORT', '99999', 'expected an integer 0-65535'],
      ['EVENTSTORE_MAX_APPEND_SIZE', '0', 'expected an integer 1-'],
      ['REDIS_URL', 'localhost:6379', 'redis://'],
      ['AMQP_URL', 'http://mq', 'amqp://'],
      ['LOG_LEVEL', 'verbose', 'expected one of debug, info, warn, error, silent'],
      ['SHUTDOWN_TIMEOUT_MS', 'soon', 'expected an integer 1-'],
      ['SHUTDOWN_TIMEOUT_MS', '99999999999', 'expected an integer 1-'],
      ['STARTUP_TIMEOUT_MS', '0', 'expected an integer 1-'],
    ];
    for (const [variable, value, expected] of cases) {
      it(`names ${variable} for ${JSON.stringify(value)}`, () => {
        const errs = errors({ [variable]: value });
        expect(errs).to.have.length(1);
        expect(errs[0]?.variable).to.equal(variable);
        expect(errs[0]?.reason).to.contain(expected);
        expect(errs[0]?.reason).to.contain(`got ${JSON.stringify(value)}`);
      });
    }

    it('reports every bad variable at once', () => {
      const errs = errors({ PORT: 'abc', LOG_LEVEL: 'loud', ROLES: 'x', SHUTDOWN_TIMEOUT_MS: '-5' });
      expect(errs.map((e) => e.variable)).to.have.members(['PORT', 'LOG_LEVEL', 'ROLES', 'SHUTDOWN_TIMEOUT_MS']);
    });

    it('never shows a password from a URL', () => {
      const [e] = errors({ AMQP_URL: 'ftp://user:hunter2@mq' });
      expect(e?.reason).to.not.contain('hunter2');
      expect(e?.reason).to.contain('user:***@');
    });
  });

  describe('loadConfigOrThrow', () => {
    it('returns the config when valid', () => {
      expect(loadConfigOrThrow({ PORT: '1234' }).http.port).to.equal(1234);
    });

    it('throws a readable message naming the variable and the reason', () => {
      expect(() => loadConfigOrThrow({ PORT: 'abc' }))
        .to.throw(ConfigurationError)
        .with.property('message', 'Invalid configuration: PORT: expected an integer 0-65535 (0 picks a free port), got "abc"');
    });
  });

  describe('eventStoreConnectionString', () => {
    it('uses the configured connection string', () => {
      const c = ok({ EVENTSTORE_CONNECTION_STRING: 'esdb://es:2113?tls=false' });
      expect(eventStoreConnectionString(c)).to.equal('esdb://es:2113?tls=false');
    });

    it('points at the embedded store otherwise, bracketing IPv6 hosts', () => {
      expect(eventStoreConnectionString(ok({}))).to.equal('esdb://127.0.0.1:2113?tls=false');
      expect(eventStoreConnectionString(ok({ EVENTSTORE_HOST: '::1', EVENTSTORE_PORT: '3113' }))).to.equal(
        'esdb://[::1]:3113?tls=false',
      );
    });
  });
});
