// tagtrail's connection to one reader driven through the Impinj IoT device
// interface (docs/readers.md, "Impinj IoT readers"): the reader's lease (as
// for LLRP: one process drives a reader), status polling as the keepalive,
// presets for jobs, and the reader's tag events by the HTTP stream or MQTT.
// MQTT deliveries (QoS 1, a persistent session) are acknowledged only once
// their reads are stored, so a crash loses nothing the broker was told was
// received: unacknowledged messages come again to the next subscriber.
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Backoff } from '../core/retry';
import * as E from 'fp-ts/Either';
import mqtt, { type MqttClient } from 'mqtt';
import { readerConfigurationKind } from '../readerconfigurations';
import type { ReaderConfigDetails } from '../readerconfigurations';
import type { IotConnection } from '../readerdefinitions';
import { doorAntennasFor, dropReads, failInJob, readerHealth } from './job-side';
import type { TagRead } from './batch';
import { ReaderLinkBase } from './link-base';
import { CHECKIN_EVENT_INTERVAL_MS, type Assignment, type PendingCommand } from '../agents';
import { done, failed, type CommandOutcome } from './commands';
import { webhookPathOf } from './webhook';
import { issueSecret } from '../agents';
import { FALLBACK_MAX_POWER_CDBM, maxPowerOf, mqttSettings, planPreset, systemTimeBody, tagReadOf, TAGTRAIL_PRESET, webhookSettings } from './iot';
import type { LinkDeps } from './link-base';
import { reconnectBackoff, REPORT_RETRY_BACKOFF } from './settings';
import { nameBasedUuid } from '../core/digest';

export interface IotTarget {
  readonly name: string;
  readonly host: string;
  readonly connection: IotConnection;
}

/** Where readers publish their MQTT events (the readers role subscribes there too). */
export interface MqttSettings {
  readonly url: string;
  readonly topicPrefix: string;
}

/** How long an installation is followed, and how often its state is asked. */
const UPGRADE_FOLLOW_MS = 30 * 60_000;
const UPGRADE_POLL_MS = 1000;

class ReaderAnswer extends Error {
  override name = 'ReaderAnswer';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The definition's password cannot be opened here (another secret key): as a credentials refusal. */
class CredentialsUnusable extends Error {
  override name = 'CredentialsUnusable';
}

export class IotLink extends ReaderLinkBase {
  firmware = '';
  private reportedDown = false;
  /** The reason of a reboot this link asked for, reported once the reader is back. */
  private rebootReason: string | null = null;
  private mqttClient: MqttClient | undefined;
  /** The reader's highest transmit power (its preset schema), read at each connection: a preset without a configured power states it. */
  private maxPowerCdbm = FALLBACK_MAX_POWER_CDBM;

  constructor(
    readonly target: IotTarget,
    private readonly iot: LinkDeps & { readonly mqtt: MqttSettings },
  ) {
    super(target.name, iot);
  }

  /**
   * The IoT interface's system endpoints: REBOOT is POST /system/reboot; TIME_SYNC follows the
   * reader's NTP settings (GET /system/time/ntp): a reader keeping time by NTP sets its own clock
   * from its servers (GET /system/time/ntp/servers), else tagtrail's time is set with PUT
   * /system/time; UPGRADE uploads the image from the command's `imageUrl` (SHA-256 checked against
   * `checksum` when given) to POST /system/image/upgrade, which installs it and reboots.
   */
  protected async perform(c: PendingCommand): Promise<CommandOutcome> {
    const answer = async (f: () => Promise<CommandOutcome>): Promise<CommandOutcome> => {
      try {
        return await f();
      } catch (err) {
        if (err instanceof ReaderAnswer) return failed(`the reader refused: ${err.message}`);
        throw err;
      }
    };
    switch (c.type) {
      case 'REBOOT':
        return answer(async () => {
          await this.must('POST', '/system/reboot');
          this.rebootReason = typeof c.args['reason'] === 'string' ? c.args['reason'] : 'reboot requested';
          return done('the reader is rebooting (POST /api/v1/system/reboot)');
        });
      case 'TIME_SYNC':
        return answer(() => this.timeSync());
      case 'UPGRADE':
        return answer(() => this.upgrade(c.args));
    }
  }

  /**
   * NTP on (`active`): the reader's clock is its NTP servers' to set, and the reader refuses a time
   * set by hand; DONE when a server is in use (its state named), FAILED when NTP has no server.
   * NTP off: PUT /system/time with tagtrail's UTC time.
   */
  private async timeSync(): Promise<CommandOutcome> {
    const ntp = (await this.must('GET', '/system/time/ntp')) as Record<string, unknown> | undefined;
    if (ntp?.['active'] === true) {
      const listed = await this.must('GET', '/system/time/ntp/servers');
      const servers = (Array.isArray(listed) ? listed : []).filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>)['server'] === 'string');
      if (servers.length === 0) return failed('the reader keeps time by NTP but has no NTP server (GET /api/v1/system/time/ntp/servers is empty): add one on the reader, or turn NTP off');
      const named = servers.map((x) => `${String(x['server'])}${typeof x['status'] === 'string' ? ` (${x['status']})` : ''}`).join(', ');
      return done(`the reader keeps its clock by NTP from ${named}; not set by hand`);
    }
    const body = systemTimeBody(this.side.now());
    await this.must('PUT', '/system/time', body);
    return done(`reader clock set to ${body.systemTime} (PUT /api/v1/system/time)`);
  }

  private async upgrade(args: Record<string, unknown>): Promise<CommandOutcome> {
    const url = args['imageUrl'];
    if (typeof url !== 'string' || url === '') return failed('the IoT interface takes the upgrade file itself and tagtrail holds no image bytes: an UPGRADE for this reader needs args.imageUrl');
    const res = await fetch(url, { signal: AbortSignal.timeout(10 * this.d.settings.timeoutMs) });
    if (!res.ok) return failed(`the image could not be fetched from ${url}: ${res.status}`);
    const image = Buffer.from(await res.arrayBuffer());
    const checksum = typeof args['checksum'] === 'string' ? args['checksum'].toLowerCase() : null;
    const digest = createHash('sha256').update(image).digest('hex');
    if (checksum !== null && checksum !== digest) return failed(`the image from ${url} has SHA-256 ${digest}, not the checksum ${checksum}`);
    const form = new FormData();
    form.append('upgradeFile', new Blob([image]), typeof args['imageName'] === 'string' ? args['imageName'] : 'upgrade.upgx');
    const version = String(args['versionIdentifier']);
    this.upgrading = true;
    try {
      await this.must('POST', '/system/image/upgrade', form);
      return await this.followUpgrade(version, image.length);
    } finally {
      this.upgrading = false;
    }
  }

  /**
   * Follows the installation (GET /system/image/upgrade: `status` ready, verifying, installing,
   * successful or failed, with a `message`) until it ends, as an agent reports its own: success is
   * a LIFECYCLE VERSION_UPDATE health event with the new Firmware version, then DONE; failure a
   * HARDWARE_FAULT UPGRADE_STATUS event, then FAILED. The reader may not answer while it reboots:
   * that is waited through, up to UPGRADE_FOLLOW_MS. A firmware without the endpoint (404): DONE
   * once the image is accepted.
   */
  private async followUpgrade(version: string, bytes: number): Promise<CommandOutcome> {
    const accepted = `image ${version} (${bytes} bytes) accepted by the reader (POST /api/v1/system/image/upgrade)`;
    const deadline = Date.now() + UPGRADE_FOLLOW_MS;
    while (Date.now() < deadline && !this.stopping.signal.aborted) {
      const res = await this.call('GET', '/system/image/upgrade').catch(() => undefined);
      const body = typeof res?.body === 'object' && res.body !== null ? (res.body as Record<string, unknown>) : {};
      const status = String(body['status'] ?? '').trim();
      const message = typeof body['message'] === 'string' ? body['message'] : '';
      if (res?.status === 404) return done(accepted);
      if (res?.status === 200 && status === 'successful') {
        this.firmware = version;
        await readerHealth(this.side, 'LIFECYCLE', 'VERSION_UPDATE', { newVersion: { Firmware: version } });
        return done(`${accepted}; installed (${message || 'successful'})`);
      }
      if (res?.status === 200 && status === 'failed') {
        await readerHealth(this.side, 'HARDWARE_FAULT', 'UPGRADE_STATUS', { message: `upgrade to ${version} failed: ${message}` });
        return failed(`the reader could not install image ${version}: ${message || 'failed'}`);
      }
      await delay(UPGRADE_POLL_MS, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
    return failed(`${accepted}; no end of the installation seen within ${UPGRADE_FOLLOW_MS / 60_000} minutes`);
  }

  /** Same reader, same way of reaching it (a changed definition reopens the link). */
  sameAs(t: IotTarget): boolean {
    return JSON.stringify(t) === JSON.stringify(this.target);
  }

  get topic(): string {
    return `${this.iot.mqtt.topicPrefix}/${this.target.name}/events`;
  }

  async stop(): Promise<void> {
    await this.stopLink();
  }

  /** HTTP Basic of the definition's credentials; the password is opened only here, for the call. */
  private basicAuth(): string {
    const c = this.target.connection;
    let password: string;
    try {
      password = c.password === null ? '' : this.d.deps.secrets.open(c.password);
    } catch {
      throw new CredentialsUnusable('the stored password of the reader cannot be opened with this process\'s reader secret key (READER_SECRET_KEY or DATA_DIR/reader-secret.key): share the key, or set the password again');
    }
    return Buffer.from(`${c.username}:${password}`).toString('base64');
  }

  private base(): string {
    const c = this.target.connection;
    return `${c.scheme}://${this.target.host}${c.port === null ? '' : `:${c.port}`}/api/v1`;
  }

  private async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { Authorization: `Basic ${this.basicAuth()}` };
    // A form (a file upload) sets its own multipart Content-Type.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.base()}${path}`, { method, headers, signal: signal ?? AbortSignal.timeout(this.d.settings.timeoutMs), ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text, it is the reader's message
    }
    return { status: res.status, body: parsed };
  }

  /** A call that must answer 2xx; else a ReaderAnswer with the reader's own message. */
  private async must(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await this.call(method, path, body);
    if (res.status < 200 || res.status > 299) {
      const msg = typeof res.body === 'object' && res.body !== null && 'message' in res.body ? String((res.body as { message: unknown }).message) : JSON.stringify(res.body);
      throw new ReaderAnswer(res.status, `${method} ${path} answered ${res.status}: ${msg}`);
    }
    return res.body;
  }

  protected async run(): Promise<void> {
    const backoff = new Backoff(reconnectBackoff(this.d.settings.reconnectMaxMs));
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (!(await this.lease.tryAcquire().catch(() => false))) {
        this.state = 'standby';
        await delay(Math.max(100, Math.floor(this.d.settings.leaseMs / 3)), undefined, { signal }).catch(() => undefined);
        continue;
      }
      this.lease.keep(() => this.log.warn('reader lease lost', { reader: this.target.name }));
      this.state = 'connecting';
      const outcome = await this.session(signal).catch((err: Error) => err);
      this.state = 'waiting';
      this.endJobLocally();
      await this.closeMqtt();
      if (signal.aborted) break;
      if (outcome === 'was-up') backoff.reset();
      if (!this.reportedDown) {
        this.reportedDown = true;
        const message = outcome instanceof Error ? outcome.message : 'connection lost';
        const refused = (outcome instanceof ReaderAnswer && (outcome.status === 401 || outcome.status === 403)) || outcome instanceof CredentialsUnusable;
        this.log.warn('reader unreachable or refused', { reader: this.target.name, reason: message });
        await readerHealth(this.side, refused ? 'SOFTWARE_FAULT' : 'CONNECTION', refused ? 'READER_CONNECTION' : 'NETWORK', { message });
      }
      await this.lease.release();
      await delay(backoff.next(), undefined, { signal }).catch(() => undefined);
    }
    await this.closeMqtt();
  }

  private async session(signal: AbortSignal): Promise<'was-up'> {
    await this.must('GET', '/status');
    // The reader's status carries no firmware version; its image does (SystemImage.primaryFirmware: the booted one).
    const image = await this.call('GET', '/system/image').catch(() => undefined);
    const firmware = image?.status === 200 && typeof image.body === 'object' && image.body !== null ? (image.body as Record<string, unknown>)['primaryFirmware'] : undefined;
    this.firmware = typeof firmware === 'string' ? firmware : '';
    // Before the link counts as connected, so the first check-in carries it.
    let temperatureAt = Date.now();
    await this.readTemperature();
    await this.readMaxPower();
    const stream = new AbortController();
    const onStop = (): void => stream.abort();
    signal.addEventListener('abort', onStop, { once: true });
    try {
      let streaming: Promise<void> | undefined;
      let subscribed: Promise<unknown> | undefined;
      if (this.target.connection.delivery === 'MQTT') ({ subscribed } = await this.startMqtt());
      else if (this.target.connection.delivery === 'STREAM') streaming = this.readStream(stream.signal);
      else await this.setWebhook();
      this.state = 'connected';
      this.log.info(this.reportedDown ? 'reader reachable again' : 'reader reachable', { reader: this.target.name, delivery: this.target.connection.delivery });
      if (this.rebootReason !== null) {
        // Back from a reboot tagtrail asked for: as an agent, a LIFECYCLE REBOOT with the reason.
        await readerHealth(this.side, 'LIFECYCLE', 'REBOOT', { reason: this.rebootReason });
        this.rebootReason = null;
      }
      this.reportedDown = false;
      this.kickJob();
      await subscribed;
      // The status poll is the keepalive: the reader is gone when it stops answering.
      let streamEnded: Error | undefined;
      void streaming?.catch((err: Error) => (streamEnded = err)).then(() => (streamEnded ??= new Error('the event stream ended')));
      while (!signal.aborted) {
        await delay(this.d.settings.keepaliveMs, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) break;
        if (streamEnded) throw streamEnded;
        await this.must('GET', '/status');
        if (Date.now() - temperatureAt >= CHECKIN_EVENT_INTERVAL_MS) {
          temperatureAt = Date.now();
          await this.readTemperature();
        }
      }
      return 'was-up';
    } finally {
      signal.removeEventListener('abort', onStop);
      stream.abort();
    }
  }

  /**
   * GET /system/temperature (`systemTemperature`, degrees Celsius), once a check-in event interval
   * (the temperature rides on the check-ins). A reader without the endpoint keeps none; a failed
   * read keeps the last value: the status poll, not this, decides whether the reader is there.
   */
  private async readTemperature(): Promise<void> {
    try {
      const res = await this.call('GET', '/system/temperature');
      const t = typeof res.body === 'object' && res.body !== null ? (res.body as Record<string, unknown>)['systemTemperature'] : undefined;
      if (res.status === 200 && typeof t === 'number' && Number.isFinite(t)) this.temperature = t;
    } catch (err) {
      this.log.debug('reader temperature not read', { reader: this.target.name, err: (err as Error).message });
    }
  }

  /**
   * GET /profiles/inventory/presets-schema: the reader's own limits, its highest transmitPowerCdbm
   * among them. A reader without it, or a schema stating none, keeps FALLBACK_MAX_POWER_CDBM.
   */
  private async readMaxPower(): Promise<void> {
    try {
      const res = await this.call('GET', '/profiles/inventory/presets-schema');
      this.maxPowerCdbm = (res.status === 200 ? maxPowerOf(res.body) : null) ?? FALLBACK_MAX_POWER_CDBM;
    } catch (err) {
      this.log.debug('reader preset schema not read', { reader: this.target.name, err: (err as Error).message });
    }
  }

  /** GET /data/stream: newline-delimited JSON events as long as the connection holds. */
  private async readStream(signal: AbortSignal): Promise<void> {
    const res = await fetch(`${this.base()}/data/stream`, { headers: { Authorization: `Basic ${this.basicAuth()}` }, signal });
    if (res.status !== 200 || res.body === null) throw new ReaderAnswer(res.status, `GET /data/stream answered ${res.status}`);
    const decoder = new TextDecoder();
    let partial = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      partial += decoder.decode(chunk, { stream: true });
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      // Kept whether or not the job is known yet (the reader may answer the start after its first reads).
      for (const line of lines) this.outbox.add(this.readsOf(line));
      if (!this.outbox.hasRoom) await this.holdBack();
    }
  }

  /**
   * Past the reads a link may hold (READERS_HELD_OBSERVATIONS): the stream is not read until the
   * outbox has room again, so TCP holds the reader back.
   */
  private async holdBack(): Promise<void> {
    const reader = this.target.name;
    this.log.warn('reader held back: its reads are not stored as fast as they come; the event stream is not read meanwhile', { reader, held: this.outbox.size, cap: this.outbox.cap });
    await this.outbox.room();
    this.log.info('reader read again', { reader, held: this.outbox.size });
  }

  /** The tag reads of a delivery (a JSON event or an array of them); everything else is ignored. */
  private readsOf(text: string): TagRead[] {
    if (text.trim() === '') return []; // the stream's keep-alive
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.log.debug('IoT event is not JSON; ignored', { reader: this.target.name });
      return [];
    }
    const events = Array.isArray(parsed) ? parsed : [parsed];
    const reads = events.map(tagReadOf).filter((r) => r !== null);
    if (reads.length < events.length) this.log.debug('IoT events other than tag reads ignored', { reader: this.target.name, count: events.length - reads.length });
    return reads;
  }

  /**
   * Stores an MQTT delivery's reads as one TagsReported; resolves once they are stored (or refused
   * for good: dropped and counted), and only then is the delivery acknowledged. Its reportId comes
   * from the delivery itself, so a delivery the broker sends again (stored, but the process ended
   * before its acknowledgement) is answered as stored. Only reads of a reader in no job at all are
   * acknowledged unstored (as an agent's report outside a job is refused).
   */
  private async storeDelivery(text: string, client: MqttClient): Promise<void> {
    const reads = this.readsOf(text);
    if (reads.length === 0) return;
    const jobId = await this.jobOfDelivery(client);
    if (jobId !== null) return this.outbox.store(reads, jobId, nameBasedUuid(this.target.name, jobId, text));
    const observations = new Set(reads.map((r) => `${r.epc}/${r.antennaId ?? 1}`)).size;
    dropReads(this.side, 'NOT_ASSIGNED', { jobId: null, observations, reads: reads.length, detail: 'an MQTT delivery while the reader is in no job' });
  }

  /**
   * The job a delivery's reads belong to: the one the reader runs here, else the job it is still
   * assigned to and had acknowledged (a delivery the broker kept while the link was down, whether
   * or not the job could be started on the reader again); while the assignment is not acknowledged
   * yet, or cannot be read (a read model rebuilding, Redis away), the delivery waits. Null: in no job.
   */
  private async jobOfDelivery(client: MqttClient): Promise<string | null> {
    const backoff = new Backoff(REPORT_RETRY_BACKOFF);
    for (;;) {
      if (this.mqttClient !== client) throw new Error('the MQTT connection closed before the delivery could be stored');
      if (this.running !== undefined) return this.running.jobId;
      let assignment: Assignment | undefined;
      try {
        assignment = await this.d.jobs.assignmentFor(this.d.deps, this.target.name);
      } catch (err) {
        this.log.debug('assignment not read; the delivery waits', { reader: this.target.name, err: (err as Error).message });
        await delay(backoff.next());
        continue;
      }
      if (assignment === undefined) return null;
      if (assignment.acknowledged) return assignment.jobId;
      await delay(this.d.settings.scanMs);
    }
  }

  /**
   * WEBHOOK: the reader posts to tagtrail's webhook route with a secret issued for it now (its
   * agent secret: only the digest is kept) at READERS_WEBHOOK_BASE_URL.
   */
  private async setWebhook(): Promise<void> {
    const base = this.d.deps.config.readers.webhookBaseUrl;
    if (!base) throw new Error('delivery WEBHOOK needs READERS_WEBHOOK_BASE_URL: the address of tagtrail (with its root path) the reader can reach');
    const secret = await issueSecret(this.d.deps, this.target.name, { user: 'readers' }, this.side.now());
    await this.must('PUT', '/webhooks/event', webhookSettings(`${base.replace(/\/+$/, '')}${webhookPathOf(this.target.name)}`, this.target.name, secret));
  }

  /**
   * Tells the reader where to publish, then subscribes with a session the broker keeps across our
   * restarts. Resolves with the subscription under way (`subscribed`): mqtt.js reads the SUBACK
   * only after the deliveries the broker sent before it, so it is awaited once the job is kicked.
   */
  private async startMqtt(): Promise<{ subscribed: Promise<unknown> }> {
    const url = new URL(this.iot.mqtt.url);
    await this.must('PUT', '/mqtt', mqttSettings(url, this.topic, `reader/${this.d.deps.keys.base}/${this.target.name}`));
    const clientId = `tt-${createHash('sha256').update(`${this.d.deps.keys.base}/${this.target.name}`).digest('hex').slice(0, 20)}`;
    // Connected only once handleMessage is ours: a resumed session's deliveries may come with the
    // CONNACK, and mqtt.js's default handler would acknowledge them unstored.
    const client = mqtt.connect(this.iot.mqtt.url, { clientId, clean: false, reconnectPeriod: 1000, manualConnect: true });
    // mqtt.js sends the PUBACK of a QoS 1 message once handleMessage calls back, and hands over the
    // next message only then: each delivery is stored (one TagsReported) before it is acknowledged.
    client.handleMessage = (packet, callback) => {
      this.storeDelivery(Buffer.isBuffer(packet.payload) ? packet.payload.toString('utf8') : String(packet.payload), client).then(
        () => callback(),
        (err: unknown) => {
          // Not stored (the link closed meanwhile): not acknowledged. The broker delivers it again when the session resumes.
          this.log.warn('MQTT delivery not stored; left unacknowledged', { reader: this.target.name, err: (err as Error).message });
          client.end(true);
        },
      );
    };
    this.mqttClient = client;
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error): void => {
        client.end(true);
        reject(err);
      };
      client.once('connect', () => {
        client.off('error', failed);
        resolve();
      });
      client.once('error', failed);
      client.connect();
    });
    const subscribed = client.subscribeAsync(this.topic, { qos: 1 });
    subscribed.catch(() => undefined); // awaited by the session
    return { subscribed };
  }

  private async closeMqtt(): Promise<void> {
    const client = this.mqttClient;
    this.mqttClient = undefined;
    await client?.endAsync().catch(() => undefined);
  }

  protected async applyJob(wanted: string | null): Promise<void> {
    if (this.state !== 'connected') return;
    if (this.running?.jobId === wanted) return this.acknowledge();
    if (this.running !== undefined) {
      const ended = this.running.jobId;
      await this.call('POST', '/profiles/stop').catch(() => undefined);
      this.endJobLocally();
      this.log.info('reader stopped its job', { reader: this.target.name, jobId: ended });
    }
    if (wanted === null) return this.outbox.noJob();
    const assignment = await this.d.jobs.assignmentFor(this.d.deps, this.target.name);
    if (assignment === undefined || assignment.jobId !== wanted) return;
    const config = await this.d.deps.readModel.get(readerConfigurationKind, String(assignment.readerConfiguration['name']));
    if (config === undefined) return;
    const door = config.operation === 'THRESHOLD' ? await doorAntennasFor(this.side, assignment) : undefined;
    const preset = door !== undefined && E.isLeft(door) ? door : planPreset(config.operation, config.configuration as ReaderConfigDetails, { maxPowerCdbm: this.maxPowerCdbm, ...(door === undefined ? {} : { doorAntennas: door.right }) });
    if (E.isLeft(preset)) {
      this.failedJobs.add(wanted);
      await failInJob(this.side, wanted, `the reader cannot run the configuration: ${preset.left}`);
      return;
    }
    // Before the start: the stream's first reads may come before the reader's answer to it.
    this.beginJob(wanted, assignment.recipe);
    try {
      await this.must('PUT', `/profiles/inventory/presets/${TAGTRAIL_PRESET}`, preset.right);
      await this.must('POST', `/profiles/inventory/presets/${TAGTRAIL_PRESET}/start`);
    } catch (err) {
      this.endJobLocally();
      if (err instanceof ReaderAnswer && err.status >= 400 && err.status < 500) {
        this.failedJobs.add(wanted);
        await readerHealth(this.side, 'SOFTWARE_FAULT', 'CONFIG_SERVICE_SET', { message: err.message });
        await failInJob(this.side, wanted, `the reader refused the preset: ${err.message}`);
        return;
      }
      throw err;
    }
    await this.acknowledge();
    this.log.info('reader started its job', { reader: this.target.name, jobId: wanted, antennas: preset.right.antennaConfigs.map((a) => a.antennaPort) });
  }
}
