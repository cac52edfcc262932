// Runs the checks LMDB could die of in a child process (./check-process.ts)
// and turns the child's death by a signal into StoreDamaged. The structure
// check runs at open whenever the data file is not exactly as its owner left
// it at a clean close (after a crash, a copy, or a change by anything else);
// a store closed cleanly and untouched opens without it.
import { spawn, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import * as t from 'io-ts';
import { decodeStoredOrAbsent } from '../../core/stored-json';
import { StoreDamaged } from './damage';
import { DATA_FILE } from './datafile';
import type { ClosedAs, StoreMarker } from './marker';

const CHILD = path.join(__dirname, `check-process${path.extname(__filename)}`);

/** The child's command line: through tsx where this runs from TypeScript sources. */
function childArgs(mode: 'structure' | 'records', dir: string): string[] {
  const loader = path.extname(__filename) === '.ts' ? ['--require', require.resolve('tsx/cjs')] : [];
  return [...loader, CHILD, mode, dir];
}

/** The data file as it is now, to compare with (and to record as) how a clean close left it. */
export function dataFileNow(dir: string): ClosedAs | undefined {
  try {
    const st = statSync(path.join(dir, DATA_FILE));
    return { bytes: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

export function needsStructureCheck(dir: string, marker: StoreMarker | undefined): boolean {
  const now = dataFileNow(dir);
  if (now === undefined || now.bytes === 0) return false;
  return marker?.closedAs === undefined || marker.closedAs.bytes !== now.bytes || marker.closedAs.mtimeMs !== now.mtimeMs;
}

const ChildResultCodec = t.partial({ findings: t.array(t.string), error: t.string });
type ChildResult = t.TypeOf<typeof ChildResultCodec>;
const ProgressCodec = t.type({ checked: t.number, total: t.number, damaged: t.number, last: t.number });
export type RecordsProgress = t.TypeOf<typeof ProgressCodec>;
/** One line of the child's output (./check-process.ts): progress while it works, then its result. */
const ChildLineCodec = t.partial({ progress: ProgressCodec, result: ChildResultCodec });

/** The child's last result line, or undefined when it printed none (it died first). */
function resultOf(stdout: string): ChildResult | undefined {
  for (const line of stdout.trim().split('\n').reverse()) {
    const result = decodeStoredOrAbsent(ChildLineCodec, line)?.result;
    if (result) return result;
  }
  return undefined;
}

/** The signals a process dies of when it reads memory it must not (a damaged tree walked by LMDB). */
const CRASH_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGABRT', 'SIGTRAP', 'SIGSYS']);

/**
 * What the child's death by `signal` says of the store. A crash is damage; any other signal was
 * sent to the child (a Ctrl-C or a stop sent to the whole process group while the check ran) and
 * says nothing of the store: calling it damage would send the operator to repair a sound store.
 */
export function deathBySignal(signal: NodeJS.Signals): 'crashed' | 'interrupted' {
  return CRASH_SIGNALS.has(signal) ? 'crashed' : 'interrupted';
}

function judge(dir: string, what: string, result: ChildResult | undefined, signal: NodeJS.Signals | null, status: number | null): void {
  if (signal !== null && deathBySignal(signal) === 'interrupted') throw new Error(`the check of ${dir} was interrupted by ${signal} while ${what}; nothing is known of the store's state: run it again`);
  if (signal !== null) throw new StoreDamaged(dir, `LMDB's structure in ${DATA_FILE} is damaged: ${what} crashed (${signal})`);
  if (result?.findings && result.findings.length > 0) throw new StoreDamaged(dir, `${what} found: ${result.findings.slice(0, 20).join('; ')}${result.findings.length > 20 ? `; and ${result.findings.length - 20} more` : ''}`);
  if (status !== 0) throw new StoreDamaged(dir, `${what} failed: ${result?.error ?? `exit code ${status}`}`);
}

/** Walks every tree of the store in a child; StoreDamaged when a tree hides entries or the walk kills the child. */
export function checkStructure(dir: string): void {
  const r = spawnSync(process.execPath, childArgs('structure', dir), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw r.error;
  judge(dir, 'walking its trees', resultOf(r.stdout), r.signal, r.status);
}


/** Verifies every record in a child, calling `progress` as it goes; StoreDamaged naming what it found or where it crashed. */
export async function checkRecordsInChild(dir: string, progress: (p: RecordsProgress) => void): Promise<void> {
  const child = spawn(process.execPath, childArgs('records', dir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let partial = '';
  let last: RecordsProgress | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const reported = decodeStoredOrAbsent(ChildLineCodec, line)?.progress;
      if (reported) progress((last = reported));
    }
  });
  const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  const where = last === undefined ? 'reading its records' : `reading its records after position ${last.last}`;
  judge(dir, where, resultOf(stdout), signal, status);
}
