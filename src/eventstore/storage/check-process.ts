// A check of a store run in a child process. LMDB trusts its file's
// structure: a damaged branch or leaf page can make it fail an assertion,
// corrupt its heap or read through a wild pointer, and the process dies of a
// signal. Run here, that death is the child's; the parent reports it as a
// damaged store instead of dying with it (./structure.ts starts it).
//
//   structure: walks every key of the three databases and compares the count
//              with what the trees record (a damaged page hides entries);
//   records:   verifies every record (./verify.ts), printing progress.
//
// Prints JSON lines: {"progress": {...}} while it works, then {"result": {...}}.
// Exit 0 sound, 1 damage found, 2 could not check.
import { open } from 'lmdb';
import { EventLog } from './log';
import { verifyAll } from './verify';

const DATABASES = [
  ['log', 'binary'],
  ['index', 'msgpack'],
  ['streams', 'msgpack'],
] as const;

function print(line: unknown): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Every key of each database, counted against the tree's own count. */
function checkStructure(dir: string): string[] {
  const root = open({ path: dir, maxDbs: 8, readOnly: true });
  const findings: string[] = [];
  for (const [name, encoding] of DATABASES) {
    const db = root.openDB(name, { encoding });
    let walked = 0;
    for (const key of db.getKeys()) {
      void key;
      walked++;
    }
    const recorded = (db.getStats() as { entryCount?: number }).entryCount ?? walked;
    if (walked !== recorded) findings.push(`the ${name} tree records ${recorded} entries but ${walked} can be walked`);
  }
  return findings;
}

async function checkRecords(dir: string): Promise<string[]> {
  const log = new EventLog(dir, { maxAppendSize: 0 /* read-only: never appends */, readOnly: true, skipEndsCheck: true, skipStructureCheck: true });
  try {
    const result = await verifyAll(log, (p) => print({ progress: { checked: p.checked, total: p.total, damaged: p.findings.length, last: p.last } }));
    return result.findings.map((f) => `position ${f.position}: ${f.reason}`);
  } finally {
    await log.close();
  }
}

async function main(mode: string | undefined, dir: string | undefined): Promise<number> {
  if (dir === undefined || (mode !== 'structure' && mode !== 'records')) {
    print({ result: { error: 'usage: check-process structure|records STORE_DIR' } });
    return 2;
  }
  try {
    const findings = mode === 'structure' ? checkStructure(dir) : await checkRecords(dir);
    print({ result: { findings } });
    return findings.length === 0 ? 0 : 1;
  } catch (err) {
    print({ result: { error: err instanceof Error ? err.message : String(err) } });
    return 2;
  }
}

if (require.main === module) {
  void main(process.argv[2], process.argv[3]).then((code) => process.exit(code));
}
