// Link events, as EventStoreDB's projections and `$by_category`-style
// indexes write them: type `$>`, data `<revision>@<stream>` pointing at
// another event. A read or subscription with resolve_links answers such an
// event with the event it points at and the link beside it; without it, or
// when the target is gone (stream deleted, truncated, never written), with
// the link event alone, as EventStoreDB does.
import type { EventLog } from '../storage/log';
import { extractData } from '../storage/log';
import type { StoredRecord } from '../storage/records';
import { firstVisible } from '../storage/streamstate';
import { eventResp, type Outgoing } from './readresp';

export const LINK_EVENT_TYPE = '$>';

/** The event a link points at, if it is there to read. */
export function linkTarget(log: EventLog, link: StoredRecord): StoredRecord | undefined {
  const match = /^(\d+)@(.+)$/s.exec(extractData(link.proto).toString('utf8'));
  if (!match) return undefined;
  const revision = Number(match[1]);
  const stream = match[2] ?? '';
  const state = log.state(stream);
  if (state.tombstoned || revision < firstVisible(state) || revision > state.last) return undefined;
  const [target] = log.readStream(stream, revision, 'forwards', 1);
  return target !== undefined && Number(target.revision) === revision ? target : undefined;
}

/** The ReadResp for one record of a read or subscription. */
export function readEventResp(log: EventLog, rec: StoredRecord, resolveLinks: boolean): Outgoing {
  const target = resolveLinks && rec.type === LINK_EVENT_TYPE ? linkTarget(log, rec) : undefined;
  return target ? eventResp(target.proto, rec.position, rec.proto) : eventResp(rec.proto, rec.position);
}
