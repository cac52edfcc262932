#!/usr/bin/env node
// `npm test`: every check of the project, as fast as the machine allows, and
// a table of how long each stage took.
//
// All stages run at the same time. The int and e2e files, one parallel pool,
// are the long pole (about three minutes) and start at once; the CPU-bound
// short stages (typecheck, lint and the unit tests) run beside them, so the
// cores are busy from the first second to the last instead of the pool
// waiting for the unit tests. The pool's output streams as it comes; the
// short stages print theirs when they end, so nothing interleaves mid-line.
// The exit code is that of the first failing stage in the table's order
// (0 when all pass).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

/** Only the long pool streams its output. */
const stages = [
  { script: 'test:int+e2e', stream: true },
  { script: 'typecheck', stream: false },
  { script: 'lint', stream: false },
  { script: 'test:unit', stream: false },
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

const started = Date.now();
const results = await Promise.all(stages.map((s) => runScript(s.script, s.stream)));
const total = Date.now() - started;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const width = Math.max(...results.map((r) => r.script.length), 'total (wall)'.length);
const rows = [
  ...results.map((r) => `  ${r.script.padEnd(width)}  ${seconds(r.ms).padStart(9)}  ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}`),
  `  ${'total (wall)'.padEnd(width)}  ${seconds(total).padStart(9)}`,
];
process.stdout.write(`\nstage durations (all stages run at the same time):\n${rows.join('\n')}\n`);
const failed = results.find((r) => r.code !== 0);
process.exitCode = failed ? failed.code : 0;
