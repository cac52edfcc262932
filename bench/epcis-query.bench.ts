// npm run bench:epcis-query: what an EPCIS query page costs (docs/epcis.md,
// "Read model") with BENCH_EPCIS_EVENTS facts in the read model (default
// 100,000). The service runs in this process (api, projections, the embedded
// event store; Redis under a prefix of its own); the facts are appended to
// the engine's stream as ItemsChanged of 1,000 first sightings, one a
// millisecond apart, and projected before the clock starts. Then each query
// is asked BENCH_REPEAT times (default 5) over HTTP and its median and
// slowest time printed: pages that match at once, and filters that match
// rarely, over all time and within a narrow time window. Figures are
// printed, not recorded.
import { cpus, loadavg } from 'node:os';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../src/core/events';
import { ENGINE_STREAM, itemEvents } from '../src/engine/events';
import { ADMIN, startTestApp } from '../test/support/app';
import { waitForValue } from '../test/support/wait';
import { positiveEnv } from './support/env';
import { percentile, progress } from './support/stats';

const EVENTS = positiveEnv('BENCH_EPCIS_EVENTS', 100_000);
const REPEAT = positiveEnv('BENCH_REPEAT', 5);
const BATCH = 1000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const epcOf = (n: number): string => `E2E0${n.toString(16).toUpperCase().padStart(20, '0')}`;
// The EPC URI of an EPC that is no GS1 key: the raw URI of its 96 bits.
const rawUri = (epc: string): string => `urn:epc:raw:96.x${epc}`;
const iso = (ms: number): string => new Date(ms).toISOString();

async function main(): Promise<void> {
  const app = await startTestApp({ ROLES: 'eventstore,api,projections' });
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  try {
    progress(`appending ${EVENTS} facts`);
    for (let from = 0; from < EVENTS; from += BATCH) {
      const changes = Array.from({ length: Math.min(BATCH, EVENTS - from) }, (_, k) => ({
        kind: 'FIRST_SEEN' as const, epc: epcOf(from + k), tid: null, jobId: 'bench', fromZone: 'ABSENT', toZone: `Z${(from + k) % 10}`, fromFloor: null, toFloor: null,
        fromFacility: null, toFacility: 'DEFAULT', fromX: null, fromY: null, toX: null, toY: null, observationTime: T0 + from + k,
        reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: false,
      }));
      await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes } })]);
    }
    const ask = async (query: Record<string, string>): Promise<{ ms: number; events: number }> => {
      const t = performance.now();
      const res = await fetch(`${app.baseUrl}/epcis/v2/events?${new URLSearchParams(query).toString()}`, { headers: { Authorization: ADMIN } });
      const body = (await res.json()) as { epcisBody?: { queryResults: { resultsBody: { eventList: unknown[] } } } };
      if (res.status !== 200) throw new Error(`${JSON.stringify(query)}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, events: body.epcisBody!.queryResults.resultsBody.eventList.length };
    };
    const last = iso(T0 + EVENTS - 1);
    progress('projecting');
    await waitForValue('every fact projected', async () => (await ask({ GE_eventTime: last })).events, (n) => n === 1, { timeoutMs: Math.max(120_000, EVENTS * 5), intervalMs: 1000 });

    const middle = T0 + Math.floor(EVENTS / 2);
    const queries: Array<[string, Record<string, string>]> = [
      ['first page, no filter (perPage 30)', {}],
      ['first page, no filter (perPage 1000)', { perPage: '1000' }],
      ['one EPC, all time (scans every fact)', { MATCH_epc: rawUri(epcOf(Math.floor(EVENTS / 2))) }],
      ['one EPC, 1 s window around it', { MATCH_epc: rawUri(epcOf(Math.floor(EVENTS / 2))), GE_eventTime: iso(middle - 500), LT_eventTime: iso(middle + 500) }],
      ['bizStep no fact has (departing), all time', { EQ_bizStep: 'departing' }],
      ['read point of 1 fact in 10 (perPage 30)', { EQ_readPoint: 'https://tagtrail.example/epcis/facilities/DEFAULT/zones/Z3' }],
    ];
    console.log(`EPCIS query over ${EVENTS} facts; ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${REPEAT} runs each`);
    for (const [what, query] of queries) {
      const times: number[] = [];
      let events = 0;
      for (let i = 0; i < REPEAT; i++) {
        const r = await ask(query);
        times.push(r.ms);
        events = r.events;
      }
      times.sort((a, b) => a - b);
      console.log(`  ${what}: ${events} events; median ${percentile(times, 50).toFixed(0)} ms, slowest ${times[times.length - 1]!.toFixed(0)} ms`);
    }
  } finally {
    await client.dispose();
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
