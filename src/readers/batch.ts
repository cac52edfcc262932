// Tag reads of one reader between two flushes, folded into the observations
// of one TagsReported: one per (EPC, antenna), with the read count summed,
// the peak RSSI the highest and first/last seen the reader's own times; the
// TID the first one given, the phase angle and the location those of the last read that had one.
import { isoTime } from '../core/iso-time';
import { type Observation, isAntennaId } from '../agents';
import type { TagRead } from '../llrp';

export type { TagRead };

interface Acc {
  epc: string;
  antennaId: number;
  peakRssi: number;
  readCount: number;
  firstMs: number;
  lastMs: number;
  tid: string | null;
  phaseAngle: number | null;
  /** lastMs of the read the phase angle comes from. */
  phaseMs: number;
  /** Where the reader located the tag last (metres), from reads that carry a location. */
  x: number | null;
  y: number | null;
  locatedMs: number;
}

export interface Batch {
  readonly fromMs: number;
  readonly toMs: number;
  readonly observations: Observation[];
}

export class ReadBatch {
  private readonly accs = new Map<string, Acc>();
  /** Reads refused (antenna id outside 1-52 and the polarized ranges): counted, not stored. */
  dropped = 0;

  get size(): number {
    return this.accs.size;
  }

  /** The reader's time of the oldest read folded (Infinity when empty). */
  get firstMs(): number {
    let first = Infinity;
    for (const a of this.accs.values()) if (a.firstMs < first) first = a.firstMs;
    return first;
  }

  /** `nowMs` stands in for a time the reader did not give. */
  add(reads: readonly TagRead[], nowMs: number): void {
    for (const r of reads) {
      const antennaId = r.antennaId ?? 1;
      if (!isAntennaId(antennaId)) {
        this.dropped++;
        continue;
      }
      const first = r.firstSeenUs === null ? nowMs : Math.floor(r.firstSeenUs / 1000);
      const last = r.lastSeenUs === null ? first : Math.max(first, Math.floor(r.lastSeenUs / 1000));
      const key = `${r.epc}/${antennaId}`;
      const a = this.accs.get(key);
      // Readers that report no RSSI (the selector asks for it) count as 0 dBm.
      const rssi = r.peakRssi ?? 0;
      const count = Math.max(1, r.seenCount ?? 1);
      if (a === undefined) {
        this.accs.set(key, { epc: r.epc, antennaId, peakRssi: rssi, readCount: count, firstMs: first, lastMs: last, tid: r.tid, phaseAngle: r.phaseAngle, phaseMs: last, x: r.x ?? null, y: r.y ?? null, locatedMs: last });
      } else {
        a.readCount += count;
        a.tid ??= r.tid;
        if (r.phaseAngle !== null && (a.phaseAngle === null || last >= a.phaseMs)) {
          a.phaseAngle = r.phaseAngle;
          a.phaseMs = last;
        }
        if (r.x != null && r.y != null && (a.x === null || last >= a.locatedMs)) {
          a.x = r.x;
          a.y = r.y;
          a.locatedMs = last;
        }
        if (rssi > a.peakRssi) a.peakRssi = rssi;
        if (first < a.firstMs) a.firstMs = first;
        if (last > a.lastMs) a.lastMs = last;
      }
    }
  }

  /** The observations so far, and an empty batch; null when there is nothing. */
  take(): Batch | null {
    if (this.accs.size === 0) return null;
    let fromMs = Infinity;
    let toMs = -Infinity;
    const observations: Observation[] = [];
    for (const a of this.accs.values()) {
      if (a.firstMs < fromMs) fromMs = a.firstMs;
      if (a.lastMs > toMs) toMs = a.lastMs;
      const o: Observation = { epc: a.epc, tid: a.tid, antennaId: a.antennaId, peakRssi: a.peakRssi, readCount: a.readCount, firstSeen: isoTime(a.firstMs), lastSeen: isoTime(a.lastMs), x: a.x, y: a.y };
      if (a.phaseAngle !== null) o.phaseAngle = a.phaseAngle;
      observations.push(o);
    }
    this.accs.clear();
    return { fromMs, toMs, observations };
  }
}
