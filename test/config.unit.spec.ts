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
        dataDirMinFreeBytes: 64 * 1024 * 1024,
        eventStore: { connectionString: undefined, host: '127.0.0.1', port: 2113, maxAppendSize: 1_048_576 },
        redisUrl: 'redis://127.0.0.1:6379',
        redisKeyPrefix: 'tagtrail:',
        amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
        amqpPublic: { host: undefined, port: 5672 },
        amqpQueueType: 'classic',
        queueRetirement: { idleMs: 604_800_000, checkEveryMs: 600_000 },
        epcisLocationBaseUrl: 'https://tagtrail.example/epcis/',
        roles: ROLES,
        logLevel: 'info',
        logSummaryIntervalMs: 60_000,
        shutdownTimeoutMs: 10_000,
        startupTimeoutMs: 30_000,
        adminPassword: undefined,
        readerSecretKey: undefined,
        pageMarkerKey: undefined,
        engineSnapshots: { everyChanges: 100_000, everyMs: 300_000 },
        enginePartitions: { count: 1, owned: [0], leaseMs: 10_000 },
        metricsPort: undefined,
        jobs: { ackTimeoutMs: 60_000, stopTimeoutMs: 10_000 },
        health: { checkinIntervalSeconds: 10, missedCheckins: 3, statusWindowMinutes: 15 },
        readers: {
          keepaliveMs: 10_000, reconnectMaxMs: 30_000, leaseMs: 15_000, scanMs: 1000, timeoutMs: 10_000, heldObservations: 20_000,
          mqttUrl: 'mqtt://127.0.0.1:1883', mqttTopicPrefix: undefined, webhookBaseUrl: undefined,
        },
        upgrades: { readerTimeoutMs: 1_800_000 },
        gitCommit: undefined,
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
        DATA_DIR_MIN_FREE_MB: '0',
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
        ENGINE_PARTITIONS: '4',
        PAGE_MARKER_KEY: 'a-key-of-32-characters-for-pages',
        AMQP_QUEUE_TYPE: 'Quorum',
        ENGINE_PARTITION_IDS: '3, 1,1',
        ENGINE_LEASE_MS: '5000',
        METRICS_PORT: '9464',
        JOB_ACK_TIMEOUT_SECONDS: '2',
        JOB_STOP_TIMEOUT_SECONDS: '0',
        HEALTH_CHECKIN_INTERVAL_SECONDS: '0.5',
        HEALTH_STATUS_WINDOW_MINUTES: '30',
        READERS_KEEPALIVE_SECONDS: '1',
        READERS_RECONNECT_MAX_SECONDS: '5',
        READERS_LEASE_SECONDS: '3',
        READERS_HELD_OBSERVATIONS: '500',
        READERS_MQTT_URL: 'mqtts://broker:8883',
        READERS_MQTT_TOPIC_PREFIX: 'site/a',
        READERS_WEBHOOK_BASE_URL: 'https://tagtrail.example.com/itemsense',
        UPGRADE_READER_TIMEOUT_SECONDS: '600',
        GIT_COMMIT: 'abc123',
        EPCIS_LOCATION_BASE_URL: 'https://ids.example.com/sites',
      });
      expect(c).to.deep.equal({
        http: { host: '127.0.0.1', port: 3000, rootPath: '/api/v2' },
        dataDir: '/var/lib/tagtrail',
        dataDirMinFreeBytes: 0,
        eventStore: { connectionString: 'esdb://es:2113?tls=false', host: '::1', port: 0, maxAppendSize: 4096 },
        redisUrl: 'rediss://:pw@cache:6380/2',
        redisKeyPrefix: 'site-a:',
        amqpUrl: 'amqps://u:p@mq/%2F',
        amqpPublic: { host: 'mq.example.com', port: 5671 },
        amqpQueueType: 'quorum',
        queueRetirement: { idleMs: 0, checkEveryMs: 60_000 },
        epcisLocationBaseUrl: 'https://ids.example.com/sites/',
        roles: ['api', 'relay'],
        logLevel: 'warn',
        logSummaryIntervalMs: 5000,
        shutdownTimeoutMs: 500,
        startupTimeoutMs: 2000,
        adminPassword: 's3cret',
        readerSecretKey: undefined,
        pageMarkerKey: 'a-key-of-32-characters-for-pages',
        engineSnapshots: { everyChanges: 0, everyMs: 60_000 },
        enginePartitions: { count: 4, owned: [1, 3], leaseMs: 5000 },
        metricsPort: 9464,
        jobs: { ackTimeoutMs: 2000, stopTimeoutMs: 0 },
        health: { checkinIntervalSeconds: 0.5, missedCheckins: 3, statusWindowMinutes: 30 },
        readers: {
          keepaliveMs: 1000, reconnectMaxMs: 5000, leaseMs: 3000, scanMs: 1000, timeoutMs: 10_000, heldObservations: 500,
          mqttUrl: 'mqtts://broker:8883', mqttTopicPrefix: 'site/a', webhookBaseUrl: 'https://tagtrail.example.com/itemsense',
        },
        upgrades: { readerTimeoutMs: 600_000 },
        gitCommit: 'abc123',
      } satisfies Config);
    });

    it('mounts at the root for ROOT_PATH=/', () => {
      expect(ok({ ROOT_PATH: '/' }).http.rootPath).to.equal('');
    });

    it('accepts esdb+discover connection strings', () => {
      const cs = 'esdb+discover://admin:changeit@cluster.local:2113?tls=true';
      expect(ok({ EVENTSTORE_CONNECTION_STRING: cs }).eventStore.connectionString).to.equal(cs);
    });

    it('accepts the gossip seeds of a cluster as a comma-separated host list', () => {
      for (const cs of ['esdb+discover://es1:2113,es2:2113,es3:2113?tls=false', 'esdb://admin:changeit@10.0.0.1:2113,[::1]:2113,es3?tls=true&nodePreference=leader']) {
        expect(ok({ EVENTSTORE_CONNECTION_STRING: cs }).eventStore.connectionString).to.equal(cs);
      }
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
      ['EVENTSTORE_CONNECTION_STRING', 'esdb://es1:2113,,es3:2113', 'comma-separated list of host:port'],
      ['EVENTSTORE_CONNECTION_STRING', 'esdb+discover://es 1:2113', 'esdb+discover://'],
      ['EVENTSTORE_CONNECTION_STRING', 'esdb://', 'esdb://'],
      ['EVENTSTORE_HOST', 'a b', 'expected a host name'],
      ['EVENTSTORE_PORT', '99999', 'expected an integer 0-65535'],
      ['EVENTSTORE_MAX_APPEND_SIZE', '0', 'expected an integer 1-'],
      ['DATA_DIR_MIN_FREE_MB', '-1', 'expected an integer 0-'],
      ['DATA_DIR_MIN_FREE_MB', '64MB', 'expected an integer 0-'],
      ['REDIS_URL', 'localhost:6379', 'redis://'],
      ['AMQP_URL', 'http://mq', 'amqp://'],
      ['LOG_LEVEL', 'verbose', 'expected one of debug, info, warn, error, silent'],
      ['SHUTDOWN_TIMEOUT_MS', 'soon', 'expected an integer 1-'],
      ['SHUTDOWN_TIMEOUT_MS', '99999999999', 'expected an integer 1-'],
      ['JOB_ACK_TIMEOUT_SECONDS', '1.5', 'expected an integer 0-'],
      ['HEALTH_CHECKIN_INTERVAL_SECONDS', '0', 'expected a number above 0'],
      ['HEALTH_CHECKIN_INTERVAL_SECONDS', 'often', 'expected a number above 0'],
      ['HEALTH_STATUS_WINDOW_MINUTES', '-3', 'expected a number above 0'],
      ['READERS_KEEPALIVE_SECONDS', '0', 'expected an integer 1-86400'],
      ['READERS_MQTT_URL', 'http://broker', 'mqtt://'],
      ['READERS_WEBHOOK_BASE_URL', 'tagtrail.local/itemsense', 'http://'],
      ['UPGRADE_READER_TIMEOUT_SECONDS', '0', 'expected an integer 1-'],
      ['STARTUP_TIMEOUT_MS', '0', 'expected an integer 1-'],
      ['ENGINE_PARTITIONS', '0', 'expected an integer 1-1024'],
      ['AMQP_QUEUE_TYPE', 'stream', 'expected one of classic, quorum'],
      ['ENGINE_PARTITION_IDS', '0,x', 'expected a comma-separated list of integers 0-1023'],
      ['ENGINE_PARTITION_IDS', '1,,2', 'expected a comma-separated list of integers 0-1023'],
      ['ENGINE_LEASE_MS', '10', 'expected an integer 300-'],
    ];
    it('names ENGINE_PARTITION_IDS when it lists a partition ENGINE_PARTITIONS does not have', () => {
      const errs = errors({ ENGINE_PARTITIONS: '2', ENGINE_PARTITION_IDS: '1,2,5' });
      expect(errs).to.have.length(1);
      expect(errs[0]?.variable).to.equal('ENGINE_PARTITION_IDS');
      expect(errs[0]?.reason).to.contain('partition 2, 5 does not exist: ENGINE_PARTITIONS is 2');
    });
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
