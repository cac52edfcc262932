// Mocha root hooks (loaded by .mocharc.json for every run): a test run may
// only touch Redis keys of the test namespace, never those of a running
// service (`tagtrail:` by default) or anything else on the shared Redis.
// redis-key-guard.js records each command of this process and of its child
// processes (through NODE_OPTIONS) that touches another key; after the last
// test the run fails, listing them. See docs/operations.md, "Tests and a
// running service".
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const guard = require('./redis-key-guard.js') as {
  install(runProcess?: boolean): void;
  violations: Violation[];
  DIR_VARIABLE: string;
  ALLOWED_PREFIX: string;
};

interface Violation {
  readonly pid: number;
  readonly command: string;
  readonly keys: readonly string[];
  test?: string;
}

const GUARD_MODULE = join(__dirname, 'redis-key-guard.js');
let dir: string | undefined;

function childViolations(): Violation[] {
  if (dir === undefined) return [];
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir!, f), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => ({ ...(JSON.parse(l) as Violation), test: '(a child process)' })),
  );
}

export const mochaHooks = {
  beforeAll(): void {
    guard.install(true);
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-redis-guard-'));
    process.env[guard.DIR_VARIABLE] = dir;
    // Child processes inherit the environment (childEnv, runTsScript): they load the guard too.
    // (A parallel worker runs these hooks once per file: add the option once.)
    const option = `--require ${JSON.stringify(GUARD_MODULE)}`;
    const current = process.env['NODE_OPTIONS'] ?? '';
    if (!current.includes(option)) process.env['NODE_OPTIONS'] = `${current} ${option}`.trim();
  },
  afterEach(this: Mocha.Context): void {
    // The commands recorded since the last test ended are this test's (or its hooks').
    for (const v of guard.violations) v.test ??= this.currentTest?.fullTitle() ?? '(unknown test)';
  },
  afterAll(): void {
    // Taken out of the record: a parallel worker reports each file's own.
    const found = [...guard.violations.splice(0), ...childViolations()];
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    if (found.length === 0) return;
    const lines = found.slice(0, 20).map((v) => `  ${v.command} ${v.keys.join(' ')}  (${v.test ?? 'outside any test'}, pid ${v.pid})`);
    throw new Error(
      `Redis isolation: ${found.length} command(s) touched keys outside the test namespace ${guard.ALLOWED_PREFIX}* ` +
        `(a running service or another test run owns those):\n${lines.join('\n')}`,
    );
  },
};
