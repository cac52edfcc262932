#!/usr/bin/env node
// `npm test`: every check of the project, as fast as the machine allows, and
// a table of how long each stage took.
//
// All stages run at the same time. The int and e2e files, one parallel pool,
// are the long pole (five to six minutes) and start at once; the CPU-bound
// short stages (typecheck, lint and the unit tests) run beside them at a
// lower priority, so the cores are busy from the first second to the last
// instead of the pool waiting for the unit tests. The pool's output streams as it comes; the
// short stages print theirs when they end, so nothing interleaves mid-line.
// The exit code is that of the first failing stage in the table's order
// (0 when all pass).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import process from 'node:process';

/**
 * Only the long pool streams its output. The short stages run at a lower
 * priority: they have minutes to spare before the pool ends, and the pool's
 * files wait on time limits (start-ups, catch-ups) that a starved worker
 * would stretch.
 */
const stages = [
  { script: 'test:int+e2e', stream: true, nice: 0 },
  { script: 'typecheck', stream: false, nice: 10 },
  { script: 'lint', stream: false, nice: 10 },
  { script: 'test:unit', stream: false, nice: 10 },
];

/** Runs `npm run <script>`; resolves with its exit code, its output (when buffered) and its duration. */
function runScript(script, stream, nice) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    // Set before npm starts the stage's own process, which inherits it; where it cannot be set, the stage runs as is.
    if (nice && child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // not permitted here: same priority as the pool
      }
    }
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
const results = await Promise.all(stages.map((s) => runScript(s.script, s.stream, s.nice)));
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
