// Random engine scenarios (seeded, so a failure reproduces): several
// facilities, both job types, shared and isolated jobs, reads (some late) and
// ticks interleaved, optionally jobs ending. The steps are generated first and
// applied afterwards, so a test can stop half-way (e.g. to snapshot) and go on.
import { endJob, type ExpiryStrategy, type JobContext } from '../../src/engine';
import { mulberry32 } from '../../src/simulator/prng';
import { Harness, inventoryRecipe, job, locationRecipe, rect, reader, zoneMap, type Seen } from './fixtures';

export function jobsOf(): JobContext[] {
  const north = zoneMap('North', rect('A', '1', 0, 0, 10, 10), rect('B', '1', 10, 0, 20, 10), rect('A', '2', 0, 0, 20, 10));
  const readers = { n1: reader(5, 5, '1'), n2: reader(15, 5, '1', { antennaZones: { '2': 'Gate' } }), n3: reader(5, 5, '2'), n4: reader(30, 5, '1', { readerZone: 'Dock' }) };
  return [
    job('inv-north', 'North', inventoryRecipe({ tagExpiryMs: 30_000, tagHeartbeatMs: 60_000 }), { readers, map: north }),
    job('loc-north', 'North', locationRecipe({ tagExpiryMs: 20_000, minimumMovementInMeters: 0.5, reportingIntervalMs: 500 }), { readers, map: north }),
    job('inv-south', 'South', inventoryRecipe({ tagExpiryMs: 40_000 }), { readers: { s1: reader(1, 1, null), s2: reader(2, 2, null, { readerZone: 'Bay' }) } }),
    job('loc-iso', 'North', locationRecipe({ tagExpiryMs: 15_000, minimumMovementInMeters: 0 }), { readers, map: north, useOtherJobData: false }),
  ];
}

export interface ScenarioOptions {
  readonly expiry?: ExpiryStrategy;
  /** More EPCs than the default five, so expiry buckets hold several items. */
  readonly epcs?: number;
  /** Now and then a job ends (its items stop expiring until another job reads them). */
  readonly endJobs?: boolean;
}

export type Step =
  | { readonly kind: 'tick'; readonly now: number }
  | { readonly kind: 'end'; readonly jobId: string }
  | { readonly kind: 'read'; readonly ctx: JobContext; readonly readerName: string; readonly seen: Seen[]; readonly now: number };

export function scenarioSteps(seed: number, count = 400, o: ScenarioOptions = {}): Step[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const jobs = jobsOf();
  const epcs = Array.from({ length: o.epcs ?? 5 }, (_, i) => `E${i + 1}`);
  const steps: Step[] = [];
  let now = 0;
  for (let i = 0; i < count; i++) {
    now += rnd() < 0.1 ? 10 + rnd() * 40 : rnd() * 3;
    if (o.endJobs === true && rnd() < 0.01) {
      steps.push({ kind: 'end', jobId: pick(jobs).jobId });
      continue;
    }
    if (rnd() < 0.3) {
      steps.push({ kind: 'tick', now });
      continue;
    }
    const ctx = pick(jobs);
    const readerName = pick([...ctx.readers.keys()]);
    const seen = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({
      epc: pick(epcs),
      t: now - rnd() * 2, // some reads are late
      antenna: pick([1, 2, 1002]),
      rssi: -30 - Math.floor(rnd() * 50),
      x: rnd() * 35,
      y: rnd() * 10,
    }));
    steps.push({ kind: 'read', ctx, readerName, seen, now });
  }
  return steps;
}

export function runSteps(h: Harness, steps: readonly Step[]): Harness {
  for (const step of steps) {
    if (step.kind === 'tick') h.tick(step.now);
    else if (step.kind === 'end') endJob(h.state, step.jobId);
    else h.read(step.ctx, step.readerName, step.seen, step.now);
  }
  return h;
}

export function scenario(seed: number, count = 400, o: ScenarioOptions = {}): Harness {
  return runSteps(new Harness(o.expiry), scenarioSteps(seed, count, o));
}
