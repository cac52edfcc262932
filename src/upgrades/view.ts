// The upgrade status object (spec: Upgrade status) from the folded state:
// {id, version, status, target, details: {readers: [{name, previousVersion,
// status, elapsedTimeSeconds, lastUpdatedTime}]}, elapsedTimeSeconds,
// lastUpdatedTime}. Two additions in `details`, beside what the published interface shows,
// say what the published interface's per-reader entry cannot: `skippedReaders` (readers of
// the target the policy's types left out, with the reason) and
// `failedReaders` (why each FAILED reader failed: its agent's message, the
// time-out, or cancelled by stop).
import type { UpgradeState } from './events';
import { overallStatus } from './events';

const seconds = (fromIso: string | null, toMs: number): number => (fromIso === null ? 0 : Math.max(0, Math.floor((toMs - Date.parse(fromIso)) / 1000)));

export function toUpgradeStatus(s: UpgradeState, now: Date) {
  if (s.request === null) throw new Error('toUpgradeStatus: upgrade not started');
  const end = s.finished !== null ? Date.parse(s.finished.time) : now.getTime();
  return {
    id: s.id,
    version: s.request.versionIdentifier,
    status: overallStatus(s),
    target: s.request.target,
    details: {
      readers: s.readers.map((r) => ({
        name: r.name,
        previousVersion: r.previousVersion,
        status: r.status,
        elapsedTimeSeconds: seconds(r.startedAt, r.finishedAt !== null ? Date.parse(r.finishedAt) : now.getTime()),
        lastUpdatedTime: r.lastUpdatedTime,
      })),
      skippedReaders: s.skipped.map((x) => ({ name: x.name, readerType: x.readerType, reason: x.reason })),
      failedReaders: s.readers.filter((r) => r.status === 'FAILED').map((r) => ({ name: r.name, reason: r.reason })),
    },
    elapsedTimeSeconds: seconds(s.createdAt, end),
    lastUpdatedTime: s.lastUpdatedTime,
  };
}
