// Plays simulated portals straight into the engine's threshold tracker (no
// service, no network), window by window as readers would report, and scores
// the transitions against what really happened. What `npm run bench:threshold`
// and the portal tests run; the same decider the engine runs.
import { type EngineReport, thresholdJobContext, ThresholdTracker, type ThresholdOutput, type ThresholdTransition } from '../engine';
import type { TransitionParameters } from '../recipes';
import type { AntennaConfiguration, Threshold } from '../thresholds';
import type { Observation } from './radio';
import { antennaRefs, passageEnd, portalReaders, readPortalWindow, scoreTransitions, truthOf, type Passage, type PortalDef, type PortalNoise, type PortalReader } from './portal';

/** The threshold definitions and antenna configurations of `portals`, as the demo creates them (ids from 1). */
export function portalConfiguration(portals: readonly PortalDef[], prefix: string, facility: string): { thresholds: Threshold[]; antennaConfigurations: AntennaConfiguration[]; readers: Array<{ portal: PortalDef; reader: PortalReader }> } {
  const thresholds: Threshold[] = [];
  const antennaConfigurations: AntennaConfiguration[] = [];
  const readers: Array<{ portal: PortalDef; reader: PortalReader }> = [];
  portals.forEach((portal, i) => {
    const t: Threshold = { id: i + 1, name: portal.name, facility, readerArrangement: portal.arrangement, readers: {} };
    for (const reader of portalReaders(portal, prefix)) {
      const id = antennaConfigurations.length + 1;
      antennaConfigurations.push({ id, name: `${reader.name} ${portal.arrangement}`, side: reader.side, readerType: reader.family, readerArrangement: portal.arrangement, ...antennaRefs(reader) });
      t.readers[reader.name] = { antennaConfigurationId: id };
      readers.push({ portal, reader });
    }
    thresholds.push(t);
  });
  return { thresholds, antennaConfigurations, readers };
}


export interface PortalRunOptions {
  readonly portals: readonly PortalDef[];
  readonly passages: readonly Passage[];
  readonly readerMode: string;
  readonly noise: PortalNoise;
  readonly seed: number;
  readonly parameters?: TransitionParameters;
  /** Report window, ms (THRESHOLD readers report every 500 ms). */
  readonly windowMs?: number;
  /** The way a window's reads reach the engine (a protocol's encoding and decoding); default: as read. */
  readonly through?: (reader: string, reads: Observation[]) => Observation[];
}

export interface PortalRunResult {
  readonly transitions: ThresholdTransition[];
  readonly observations: number;
  readonly score: ReturnType<typeof scoreTransitions>;
  /** Time spent in the tracker (ingest and sweeps), ms. */
  readonly trackerMs: number;
}

export function runPortals(o: PortalRunOptions): PortalRunResult {
  const { thresholds, antennaConfigurations, readers } = portalConfiguration(o.portals, 'sim-', 'F');
  const ctx = thresholdJobContext({
    jobId: 'portal-run',
    facility: 'F',
    recipe: { name: 'r', type: 'THRESHOLD', readerConfigurations: {}, thresholdIds: [], iterationDataLogEnabled: false, ...(o.parameters ? { transitionParameters: o.parameters } : {}) },
    thresholds,
    antennaConfigurations,
    reportToDatabaseEnabled: true,
    reportToMessageQueueEnabled: true,
  });
  const tracker = new ThresholdTracker();
  const out: ThresholdOutput = { transitions: [], iterations: [] };
  const windowMs = o.windowMs ?? 500;
  const end = Math.max(0, ...o.passages.map(passageEnd)) + 5;
  const byPortal = new Map(o.portals.map((p) => [p.name, o.passages.filter((x) => x.portal === p.name)]));
  let observations = 0;
  let trackerMs = 0;
  for (let from = 0; from < end * 1000; from += windowMs) {
    // Reports arrive a little after their window ends.
    const now = from + windowMs + 100;
    for (const { portal, reader } of readers) {
      const read = readPortalWindow({ portal, reader, passages: byPortal.get(portal.name) ?? [], from: from / 1000, to: (from + windowMs) / 1000, readerMode: o.readerMode, noise: o.noise, seed: o.seed });
      const obs = o.through === undefined || read.length === 0 ? read : o.through(reader.name, read);
      if (obs.length === 0) continue;
      observations += obs.length;
      const report: EngineReport = {
        reader: reader.name,
        jobId: 'portal-run',
        facility: 'F',
        epc: obs.map((x) => x.epc),
        tid: undefined,
        antennaId: obs.map((x) => x.antennaId),
        peakRssi: obs.map((x) => x.peakRssi),
        timeBase: 0,
        lastSeen: obs.map((x) => Math.round(x.lastSeen * 1000)),
        firstSeen: obs.map((x) => Math.round(x.firstSeen * 1000)),
        readCount: obs.map((x) => x.readCount),
        x: undefined,
        y: undefined,
      };
      const t0 = performance.now();
      tracker.ingest(report, ctx, now, out);
      trackerMs += performance.now() - t0;
    }
    const t0 = performance.now();
    tracker.sweep(now, out);
    trackerMs += performance.now() - t0;
  }
  tracker.endJob('portal-run', end * 1000, out);
  const reported = out.transitions.map((t) => ({ epc: t.epc, portal: t.thresholdName, destination: t.destination, at: t.observationTime / 1000 }));
  return { transitions: out.transitions, observations, score: scoreTransitions(truthOf(o.passages), reported, o.passages), trackerMs };
}
