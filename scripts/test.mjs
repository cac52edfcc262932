#!/usr/bin/env node
// `npm test`: every check of the project, as fast as the machine allows, and
// a table of how long each stage took.
//
// Two lanes run at the same time, because they need different things: the
// static checks (typecheck, lint) are CPU-bound for about a minute, the test
// stages mostly wait on child processes, sockets and the event store. The
// test lane runs unit, int and e2e in order and stops at the first failing
// stage (a broken unit test makes the slower stages noise); the static lane
// always runs both. Test output streams as it comes; the static checks'
// output is printed when they end, so the two never interleave mid-line.
// The exit code is that of the first failing stage (0 when all pass).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const lanes = [
  { stages: ['typecheck', 'lint'], stream: false, stopOnFailure: false, concurrent: true },
  { stages: ['test:unit', 'test:int', 'test:e2e'], stream: true, stopOnFailure: true, concurrent: false },
];

/** Runs `npm run <script>`; resolves with its exit code, its output (when buffered) and its duration. */
function runScript(script, stream) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('error', (err) => chunks.push(Buffer.from(`${String(err)}\n`)));
    child.on('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString('utf8');
      if (!stream) process.stdout.write(`\n── ${script} (${code === 0 ? 'passed' : 'FAILED'}) ──\n${output}`);
      resolve({ script, code: code ?? (signal ? 1 : 0), ms: Date.now() - started });
    });
  });
}

async function runLane(lane) {
  if (lane.concurrent) return Promise.all(lane.stages.map((s) => runScript(s, lane.stream)));
  const results = [];
  for (const script of lane.stages) {
    if (lane.stopOnFailure && results.some((r) => r.code !== 0)) {
      results.push({ script, code: undefined, ms: 0 });
      continue;
    }
    results.push(await runScript(script, lane.stream));
  }
  return results;
}

const started = Date.now();
const results = (await Promise.all(lanes.map(runLane))).flat();
const total = Date.now() - started;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const status = (r) => (r.code === undefined ? 'skipped' : r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`);
const width = Math.max(...results.map((r) => r.script.length), 'total (wall)'.length);
const rows = [
  ...results.map((r) => `  ${r.script.padEnd(width)}  ${(r.code === undefined ? '-' : seconds(r.ms)).padStart(9)}  ${status(r)}`),
  `  ${'total (wall)'.padEnd(width)}  ${seconds(total).padStart(9)}`,
];
process.stdout.write(`\nstage durations (the static checks run beside the tests):\n${rows.join('\n')}\n`);
const failed = results.find((r) => r.code !== undefined && r.code !== 0);
process.exitCode = failed ? failed.code : 0;
