// Sends one notification with net-snmp, as the settings say.
//
// TRAP (default): an SNMPv2-Trap-PDU, unacknowledged by protocol; it is sent
// once, and `timeout`/`retries` do not apply (there is no answer to wait for).
// INFORM: an InformRequest-PDU that the manager acknowledges; net-snmp
// resends it after `timeout` up to `retries` times and fails after that.
// The published interface's trap target carries timeout and retries, which only mean
// something for INFORMs, hence both message types (docs/snmp.md).
// One session (UDP socket) per distinct settings, reused until they change.
// The community is stored sealed and opened only here, for the session.
import * as snmp from 'net-snmp';
import { isLeft } from 'fp-ts/Either';
import { parseIsoDuration } from '../core/duration';
import type { SecretBox } from '../core/secret-box';
import { communityOf, type SnmpSettings, type TrapTargetConfig } from '../settings';
import type { SnmpNotification } from './notification';
import { OBJECT_OIDS, type NotificationObject } from './oids';

export interface NotificationSender {
  send(settings: SnmpSettings, n: SnmpNotification): Promise<void>;
  close(): void;
}

export function timeoutMs(target: TrapTargetConfig): number {
  const ms = parseIsoDuration(target.timeout);
  // Stored settings were validated; a bad value here would be a stored-data bug.
  if (isLeft(ms)) throw new Error(`stored SNMP timeout ${target.timeout}: ${ms.left}`);
  return ms.right;
}

export function varbindsOf(n: SnmpNotification): snmp.Varbind[] {
  return (Object.keys(OBJECT_OIDS) as NotificationObject[]).map((k) => ({
    oid: OBJECT_OIDS[k],
    type: snmp.ObjectType.OctetString,
    value: n.objects[k],
  }));
}

/** `secrets` opens the stored community; one that cannot be opened fails each send (logged by the notifier). */
export function createNetSnmpSender(secrets: SecretBox): NotificationSender {
  let session: { key: string; session: snmp.Session } | undefined;
  const sessionFor = (settings: SnmpSettings, target: TrapTargetConfig): snmp.Session => {
    const key = JSON.stringify(settings);
    if (session?.key === key) return session.session;
    session?.session.close();
    const s = snmp.createSession(target.host, communityOf(settings, secrets), {
      version: snmp.Version2c,
      // INFORMs go to `port`, TRAPs to `trapPort`: both are the target's port.
      port: target.port,
      trapPort: target.port,
      timeout: timeoutMs(target),
      retries: target.retries,
      // A resolver or socket error is reported per send; keep the session.
    });
    s.on('error', () => undefined);
    session = { key, session: s };
    return s;
  };
  return {
    async send(settings, n) {
      const target = settings.trapTargetConfig;
      if (target === null) return;
      const s = sessionFor(settings, target);
      await new Promise<void>((resolve, reject) => {
        const done = (err: Error | null): void => (err ? reject(err) : resolve());
        if (target.messageType === 'INFORM') s.inform(n.oid, varbindsOf(n), (err) => done(err));
        else s.trap(n.oid, varbindsOf(n), (err) => done(err));
      });
    },
    close() {
      session?.session.close();
      session = undefined;
    },
  };
}
