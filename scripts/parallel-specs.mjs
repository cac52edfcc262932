#!/usr/bin/env node
// Runs spec files of one or more tiers (`int`, `e2e`, or `int+e2e`) with
// mocha in parallel, the slowest files first.
//
// Mocha hands files to its workers in the order given. A run's wall time is
// at least its slowest file's, and a slow file handed out last runs alone
// while the other workers sit idle: longest first keeps every worker busy to
// the end. How long each file took is kept in test/durations.json
// (`npm run test:timings` measures it again); files not listed there (new
// ones) go first, as if slow. Extra arguments go to mocha as they are
// (`npm run test:e2e -- --grep console`).
//
// `npm test` runs both tiers as one pool: run one after the other, the end
// of the int tier (a few slow files, the rest of the workers idle) and the
// start of the e2e tier never overlap, and the two cores sit half idle.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import process from 'node:process';

/** Workers per run: more than the two cores, as these files mostly wait; more than this starves their child processes. */
const JOBS = { int: 3, e2e: 3, 'int+e2e': 4 };
const [tier, ...extra] = process.argv.slice(2);
if (!(tier in JOBS)) {
  process.stderr.write(`usage: parallel-specs.mjs ${Object.keys(JOBS).join('|')} [mocha arguments]\n`);
  process.exit(2);
}

const root = process.cwd();
const suffixes = tier.split('+').map((t) => `.${t}.spec.ts`);
const files = readdirSync(join(root, 'test'), { recursive: true })
  .map((f) => join('test', String(f)).split(sep).join('/'))
  .filter((f) => suffixes.some((s) => f.endsWith(s)));

const durationsFile = join(root, 'test', 'durations.json');
const known = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
const cost = (f) => (typeof known[f] === 'number' ? known[f] : Number.POSITIVE_INFINITY);
// Ties (unknown files) keep a stable, readable order.
files.sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));

const mocha = join(root, 'node_modules', '.bin', 'mocha');
const args = ['--parallel', '--jobs', String(process.env['TEST_JOBS'] ?? JOBS[tier]), '--timeout', '60000', ...extra, ...files];
const child = spawn(mocha, args, { stdio: 'inherit' });
child.on('close', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
// Ctrl-C reaches the child through the terminal's process group; a plain
// kill of this process must not leave mocha's workers running.
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s));
