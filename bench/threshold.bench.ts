// npm run bench:threshold: accuracy of threshold transitions against the
// simulator's ground truth, and the cost of the threshold path per
// observation (docs/benchmarks.md, "Threshold transitions").
//
// Accuracy: simulated portals (OVERHEAD and SIDE_BY_SIDE), tags walking
// through at 1-2 m/s either way, lingering, turning back and passing by
// (src/simulator/portal.ts), read at three read rates (reader modes of 1, 2
// and 4 rounds a second) and three noise levels, reported in 500 ms windows
// straight into the engine's threshold tracker (src/simulator/portal-run.ts).
//
// Cost: the tracker's ingest of pre-built reports of many tags in a door at
// once, against a raw loop over the same columns doing one map lookup per
// observation (the least any per-observation step can do), measured in the
// same run; printed as observations/s and as a ratio.
import { thresholdJobContext } from '../src/engine/threshold/context';
import type { EngineReport } from '../src/engine/report';
import { ThresholdTracker, type ThresholdOutput } from '../src/engine/threshold/tracker';
import { DEMO_PORTAL_NOISE, PORTAL_ARRANGEMENTS, randomPassages, type PortalNoise } from '../src/simulator/portal';
import { portalConfiguration, runPortals } from '../src/simulator/portal-run';
import type { Observation } from '../src/simulator/radio';
import { wireRoAccessReport, wireTagReportData } from '../src/simulator/llrp-wire';
import { LlrpFramer, MSG, decodeTagReads } from '../src/llrp';
import { ReadBatch } from '../src/readers/batch';
import { THRESHOLD_REPORT_INTERVAL_MS } from '../src/readers/plan';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3600);
const SEED = Number(process.env['BENCH_SEED'] ?? 1);
const READ_RATES: ReadonlyArray<[string, string]> = [['DENSE_READER_M8', '1/s'], ['MAX_MILLER', '2/s'], ['MAX_THROUGHPUT', '4/s']];
const NOISE: ReadonlyArray<[string, PortalNoise]> = [
  ['demo (σ 2 dB, 1 % stray)', DEMO_PORTAL_NOISE],
  ['σ 4 dB, 3 % stray', { rssiSigmaDb: 4, strayRate: 0.03 }],
  ['σ 6 dB, 8 % stray', { rssiSigmaDb: 6, strayRate: 0.08 }],
];

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function accuracy(): void {
  console.log(`accuracy: ${SECONDS} s of simulated traffic per row, one visit every 3 s on average (60 % through, 15 % linger 10-60 s, 15 % turn back 1 m past the door, 10 % pass by), seed ${SEED}`);
  console.log('| arrangement | read rate | noise | true passages | detected, right direction (recall) | wrong direction | reported | precision | false | false, turn-back pairs allowed |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  const epcs = Array.from({ length: 80 }, (_, i) => `E28011606000020000${i.toString(16).toUpperCase().padStart(6, '0')}`);
  for (const arrangement of PORTAL_ARRANGEMENTS) {
    const portals = [{ name: 'door', arrangement, x: 0, y: 0, floor: '1' }];
    const passages = randomPassages({ portals, epcs, seed: SEED, from: 0, until: SECONDS, everySeconds: 3 });
    for (const [mode, rate] of READ_RATES) {
      for (const [label, noise] of NOISE) {
        const { score: s } = runPortals({ portals, passages, readerMode: mode, noise, seed: SEED });
        console.log(`| ${arrangement} | ${rate} | ${label} | ${s.truePassages} | ${s.correct} (${pct(s.recall)}) | ${s.wrongDirection} | ${s.reported} | ${pct(s.precision)} | ${pct(s.falseRate)} | ${pct(s.falseRateByRule)} |`);
      }
    }
  }
}

/**
 * A window's reads as an LLRP reader sends them and tagtrail's link takes them: each read one
 * RO_ACCESS_REPORT (the ROSpec reports every tag) written by the simulated reader's own encoder,
 * framed and decoded by tagtrail's codec, folded in the link's report batch. `impinj`: with
 * ImpinjPeakRSSI (hundredths of a dBm); otherwise the standard PeakRSSI, whole dBm.
 */
function throughLlrp(impinj: boolean): (reader: string, reads: Observation[]) => Observation[] {
  const framer = new LlrpFramer();
  let id = 1;
  return (_reader, reads) => {
    const frames = reads.map((o) => wireRoAccessReport(id++, [wireTagReportData({ epc: o.epc, antennaId: o.antennaId, peakRssiCdbm: Math.round(o.peakRssi * 100), firstSeenUs: o.firstSeen * 1e6, lastSeenUs: o.lastSeen * 1e6, seenCount: o.readCount, roSpecId: 1, impinjPeakRssi: impinj })]));
    const batch = new ReadBatch();
    for (const m of framer.push(Buffer.concat(frames))) if (m.type === MSG.RO_ACCESS_REPORT) batch.add(decodeTagReads(m.body), 0);
    return (batch.take()?.observations ?? []).map((o) => ({ epc: o.epc, tid: null, antennaId: o.antennaId, peakRssi: o.peakRssi, readCount: o.readCount, firstSeen: Date.parse(o.firstSeen) / 1000, lastSeen: Date.parse(o.lastSeen) / 1000, x: null, y: null }));
  };
}

function llrpAccuracy(): void {
  console.log(`\nthrough LLRP frames: the same doors and walks (seed ${SEED}), each read an RO_ACCESS_REPORT, reports of ${THRESHOLD_REPORT_INTERVAL_MS} ms, 4 reads/s (MAX_THROUGHPUT)`);
  console.log('| arrangement | reader | noise | true passages | detected, right direction (recall) | wrong direction | reported | precision | false | false, turn-back pairs allowed |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  const epcs = Array.from({ length: 80 }, (_, i) => `E28011606000020000${i.toString(16).toUpperCase().padStart(6, '0')}`);
  const portals = [{ name: 'door', arrangement: 'SIDE_BY_SIDE' as const, x: 0, y: 0, floor: '1' }];
  const passages = randomPassages({ portals, epcs, seed: SEED, from: 0, until: SECONDS, everySeconds: 3 });
  for (const [kind, impinj] of [['any maker (PeakRSSI, 1 dB)', false], ['Impinj (ImpinjPeakRSSI, 0.01 dB)', true]] as const) {
    for (const [label, noise] of NOISE) {
      const { score: s } = runPortals({ portals, passages, readerMode: 'MAX_THROUGHPUT', noise, seed: SEED, windowMs: THRESHOLD_REPORT_INTERVAL_MS, through: throughLlrp(impinj) });
      console.log(`| SIDE_BY_SIDE | ${kind} | ${label} | ${s.truePassages} | ${s.correct} (${pct(s.recall)}) | ${s.wrongDirection} | ${s.reported} | ${pct(s.precision)} | ${pct(s.falseRate)} | ${pct(s.falseRateByRule)} |`);
    }
  }
}

function cost(): void {
  // 400 tags crossing one door together, reported in 500 ms windows: a crowd, the worst case for open tracks.
  const portals = [{ name: 'door', arrangement: 'SIDE_BY_SIDE' as const, x: 0, y: 0, floor: '1' }];
  const { thresholds, antennaConfigurations, readers } = portalConfiguration(portals, 'sim-', 'F');
  const ctx = thresholdJobContext({
    jobId: 'bench', facility: 'F', thresholds, antennaConfigurations, reportToDatabaseEnabled: true, reportToMessageQueueEnabled: true,
    recipe: { name: 'r', type: 'THRESHOLD', readerConfigurations: {}, thresholdIds: [], iterationDataLogEnabled: false },
  });
  const tags = 400;
  const windows = 40;
  const reports: EngineReport[] = [];
  for (let w = 0; w < windows; w++) {
    for (const { reader } of readers) {
      const n = tags * reader.antennas.length;
      const epc: string[] = [];
      const antennaId: number[] = [];
      const peakRssi: number[] = [];
      const seen: number[] = [];
      for (let i = 0; i < n; i++) {
        const a = reader.antennas[i % reader.antennas.length]!;
        const tag = Math.floor(i / reader.antennas.length);
        epc.push(`E280116060000200${tag.toString(16).toUpperCase().padStart(8, '0')}`);
        antennaId.push(a.id);
        // The IN side grows stronger as the window index passes the middle.
        peakRssi.push(-60 + (a.facing === (w < windows / 2 ? -1 : 1) ? 10 : 0) + ((i * 7) % 5));
        seen.push(w * 500 + (i % 500));
      }
      reports.push({ reader: reader.name, jobId: 'bench', facility: 'F', epc, tid: undefined, antennaId, peakRssi, timeBase: 0, lastSeen: seen, firstSeen: seen, readCount: epc.map(() => 2), x: undefined, y: undefined });
    }
  }
  const observations = reports.reduce((n, r) => n + r.epc.length, 0);
  const raw = (): number => {
    const map = new Map<string, number>();
    const t0 = performance.now();
    for (const r of reports) for (let i = 0; i < r.epc.length; i++) map.set(r.epc[i]!, (map.get(r.epc[i]!) ?? 0) + r.peakRssi[i]! + r.lastSeen[i]!);
    return performance.now() - t0;
  };
  const tracker = (): number => {
    const t = new ThresholdTracker();
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    const t0 = performance.now();
    reports.forEach((r, k) => t.ingest(r, ctx, Math.floor(k / readers.length) * 500 + 600, out));
    t.endJob('bench', windows * 500 + 5000, out);
    return performance.now() - t0;
  };
  // Warm up both, then the best of five.
  raw();
  tracker();
  const best = (f: () => number): number => Math.min(...Array.from({ length: 5 }, f));
  const rawMs = best(raw);
  const trackerMs = best(tracker);
  const perSecond = (ms: number): string => `${Math.round((observations / ms) * 1000).toLocaleString('en')}`;
  console.log(`cost: ${observations.toLocaleString('en')} observations (${tags} tags in one door, ${windows} windows of 500 ms, 2 readers x 2 antennas)`);
  console.log(`| step | ms (best of 5) | observations/s | ratio to raw |`);
  console.log('|---|---:|---:|---:|');
  console.log(`| raw loop (one map lookup per observation) | ${rawMs.toFixed(1)} | ${perSecond(rawMs)} | 1 |`);
  console.log(`| threshold tracker (classify, track, sweep, decide) | ${trackerMs.toFixed(1)} | ${perSecond(trackerMs)} | ${(trackerMs / rawMs).toFixed(2)} |`);
}

accuracy();
llrpAccuracy();
cost();
