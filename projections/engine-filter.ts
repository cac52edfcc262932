// The $all filter of the read models folded from the item engine's stream
// (items and history, threshold transitions, EPCIS events).
import { streamNameFilter } from '@eventstore/db-client';
import { ENGINE_STREAM } from '../src/engine';

export const ENGINE_FILTER = streamNameFilter({ prefixes: [ENGINE_STREAM] });
