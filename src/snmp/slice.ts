// SNMP notifications of reader health (docs/snmp.md): no routes of its own
// (the settings are the settings slice's); background work in the relay role.
import { hasRole } from '../config';
import type { Slice } from '../slice';
import { resetIfLogWasReplaced } from '../core/subscriptions/log-reset';
import type { RunningSubscription } from '../core/subscriptions';
import { createNetSnmpSender } from './sender';
import { SNMP_NOTIFIER, snmpSettingsStateKey, startSnmpNotifier } from './worker';

export function makeSnmpSlice(): Slice {
  return {
    name: 'snmp',
    register: () => undefined,
    start(deps, roles) {
      if (!hasRole({ roles }, 'relay')) return undefined;
      const sender = createNetSnmpSender(deps.secrets);
      const logger = deps.logger.child('snmp');
      // As every read model: a checkpoint past the log's end means the log was
      // replaced; start over (isStale keeps that from flooding the manager).
      let sub: RunningSubscription | undefined;
      let stopping = false;
      const started = (async () => {
        await resetIfLogWasReplaced({
          client: deps.client, redis: deps.redis, keys: deps.keys, projection: SNMP_NOTIFIER,
          keyPatterns: [snmpSettingsStateKey(deps.keys)], logger,
        });
        if (stopping) return;
        sub = startSnmpNotifier({
          client: deps.client,
          redis: deps.redis,
          keys: deps.keys,
          sender,
          statusWindowMinutes: deps.config.health.statusWindowMinutes,
          logger,
        });
      })().catch((err: unknown) => logger.error('SNMP notifier did not start', { err }));
      return {
        async stop() {
          stopping = true;
          await started;
          await sub?.stop();
          sender.close();
        },
      };
    },
  };
}

export const snmpSlice: Slice = makeSnmpSlice();
