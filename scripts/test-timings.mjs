#!/usr/bin/env node
// `npm run test:timings`: runs the int and e2e files as `npm test` does,
// records how long each spec file took (test/support/file-timings-hooks.ts)
// and writes test/durations.json, which scripts/parallel-specs.mjs uses to
// start the slowest files first. Run it after adding or much changing slow
// tests, on a quiet machine; a file that failed keeps its time all the same.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

const dir = mkdtempSync(join(tmpdir(), 'tagtrail-timings-'));
const out = join(dir, 'timings.jsonl');
let failed;
const run = spawnSync(process.execPath, ['scripts/parallel-specs.mjs', 'int+e2e'], { stdio: 'inherit', env: { ...process.env, TEST_TIMINGS: out } });
failed = run.status !== 0;
const durations = {};
for (const line of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
  const { file, ms } = JSON.parse(line);
  durations[file] = Math.max(durations[file] ?? 0, Math.round(ms / 100) * 100);
}
rmSync(dir, { recursive: true, force: true });
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync('test/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
const total = Object.values(durations).reduce((a, b) => a + b, 0);
process.stdout.write(`test/durations.json: ${Object.keys(durations).length} files, ${(total / 1000).toFixed(0)} s of file time${failed ? ' (some tests failed)' : ''}\n`);
