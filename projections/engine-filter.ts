// The $all filter of the read models folded from the item engine's output
// (items and history, threshold transitions, EPCIS events): every
// partition's stream (src/engine/partitions.ts).
import { streamNameFilter } from '@eventstore/db-client';
import { ENGINE_STREAM_PREFIX } from '../src/engine';

export const ENGINE_FILTER = streamNameFilter({ prefixes: [ENGINE_STREAM_PREFIX] });
