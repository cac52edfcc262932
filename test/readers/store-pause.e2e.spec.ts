// The event store paused for 10 s (SIGSTOP of its process: the store runs
// alone, `npm run eventstore`, the service in this process connected to it)
// while an LLRP reader and an IoT reader over MQTT stream into a job. The
// links hold what they cannot store; past READERS_HELD_OBSERVATIONS (small
// here) the LLRP link stops reading the reader's connection until there is
// room. Every read the readers sent is in the event log exactly once.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { childEnv, CHILD_START_MS, removeChildState, runEntryPoint, type RunningProcess } from '../support/tagtrailProcess';
import { sleep } from '../support/wait';
import { StreamingReaders, streamingEnv } from './streaming';

const PAUSE_MS = 10_000;
/** Far fewer than the LLRP reader sends during the pause (20 a second, each a new EPC). */
const HELD = 50;

describe('reader connections: the event store paused while readers stream', function () {
  this.timeout(300_000);
  let store: RunningProcess | undefined;
  let app: TestApp | undefined;
  let readers: StreamingReaders | undefined;
  let logs: CapturedLogs | undefined;

  before(async () => {
    const topicPrefix = `tagtrail-test/${crypto.randomUUID()}`;
    store = runEntryPoint('src/eventstore/main.ts', childEnv({ LOG_LEVEL: 'info' }));
    const started = await store.waitForLog((l) => l.msg === 'started' && typeof l['connectionString'] === 'string', CHILD_START_MS);
    app = await startTestApp({ ...streamingEnv(topicPrefix), EVENTSTORE_CONNECTION_STRING: String(started['connectionString']), READERS_HELD_OBSERVATIONS: String(HELD) });
    readers = new StreamingReaders(topicPrefix);
    await readers.start(app);
  });
  after(async () => {
    logs?.restore();
    store?.child.kill('SIGCONT');
    await readers?.close();
    await app?.stop();
    if (store && store.child.exitCode === null && store.child.signalCode === null) {
      store.child.kill('SIGTERM');
      await store.exited;
    }
    await removeChildState();
  });

  it('every read stored once; the LLRP reader held back meanwhile', async () => {
    const [svc, r, proc] = [app as TestApp, readers as StreamingReaders, store as RunningProcess];
    await r.storedAtLeast(svc, 20);
    logs = captureLogs();
    proc.child.kill('SIGSTOP');
    try {
      // The readers go on sending all along: a pause is time passing.
      await sleep(PAUSE_MS);
    } finally {
      proc.child.kill('SIGCONT');
    }
    const sentAtResume = Math.min(r.sent.llrp.length, r.sent.mqtt.length);
    await r.storedAtLeast(svc, sentAtResume + 20);
    await r.stop();
    await r.expectEachStoredOnce(svc);
    const lines = logs.lines.map((l) => JSON.parse(l) as { msg?: string; reader?: string });
    logs.restore();
    logs = undefined;
    const held = lines.filter((l) => l.reader === r.llrp.name && l.msg?.startsWith('reader held back'));
    expect(held.length, 'the LLRP link held its reader back').to.be.greaterThan(0);
    expect(lines.some((l) => l.reader === r.llrp.name && l.msg === 'reader read again'), 'and read it again').to.equal(true);
  });
});
