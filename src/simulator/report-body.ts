// The tag report an agent sends for one window (docs/agent-protocol.md):
// world-time observations turned into ISO time stamps inside the window,
// shifted by the reader's clock offset (an NTP fault).
import type { Window } from './clock';
import type { Observation } from './radio';

export interface ReportObservation {
  readonly epc: string;
  readonly tid: string | null;
  readonly antennaId: number;
  readonly peakRssi: number;
  readonly readCount: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly x: number | null;
  readonly y: number | null;
}

export interface ReportBody {
  readonly reportId: string;
  readonly jobId: string;
  readonly from: string;
  readonly to: string;
  readonly observations: readonly ReportObservation[];
}

export function reportBody(jobId: string, w: Window, observations: readonly Observation[], skewMs: number, realMs: (worldSeconds: number) => number, reportId: string = crypto.randomUUID()): ReportBody {
  const iso = (ms: number): string => new Date(Math.round(ms + skewMs)).toISOString();
  // Rounding between world and real time must not move a read out of its window.
  const clamp = (ms: number): number => Math.min(w.to - 1, Math.max(w.from, ms));
  return {
    reportId,
    jobId,
    from: iso(w.from),
    to: iso(w.to),
    observations: observations.map((o) => ({
      epc: o.epc, tid: o.tid, antennaId: o.antennaId, peakRssi: o.peakRssi, readCount: o.readCount,
      firstSeen: iso(clamp(realMs(o.firstSeen))), lastSeen: iso(clamp(realMs(o.lastSeen))), x: o.x, y: o.y,
    })),
  };
}
