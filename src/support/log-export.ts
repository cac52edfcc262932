// GET /support/v1/logs: the retained log lines (./log-file.ts) whose `time`
// lies in [from, to], oldest first, as gzip-compressed NDJSON (one JSON log
// object a line, exactly as logged). `extended=false` keeps info, warn and
// error lines; `extended=true` adds debug lines (retained only while
// LOG_LEVEL=debug) and lines that are not JSON (kept verbatim).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import * as t from 'io-ts';
import { decodeStoredOrAbsent } from '../core/stored-json';
import { logFiles } from './log-file';

export interface LogQuery {
  readonly from: Date;
  readonly to: Date;
  readonly extended: boolean;
}

export function keepLine(line: string, q: LogQuery): boolean {
  // A line that is not a JSON object is not one of our log lines: extended export only.
  const parsed = decodeStoredOrAbsent(t.UnknownRecord, line);
  if (parsed === undefined) return q.extended;
  const at = typeof parsed.time === 'string' ? Date.parse(parsed.time) : NaN;
  if (!Number.isFinite(at) || at < q.from.getTime() || at > q.to.getTime()) return false;
  return q.extended || parsed.level !== 'debug';
}

async function* matchingLines(dataDir: string, q: LogQuery): AsyncGenerator<string> {
  // The file list is taken once: a rotation during the export may drop or
  // repeat a file's lines, which a support export can live with.
  for (const file of logFiles(dataDir)) {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) if (line.length && keepLine(line, q)) yield line + '\n';
  }
}

export function exportLogs(dataDir: string, q: LogQuery): Readable {
  return Readable.from(matchingLines(dataDir, q)).pipe(createGzip());
}
