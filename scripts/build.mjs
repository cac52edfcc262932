#!/usr/bin/env node
// `npm run build`: compiles the service (src/, projections/, scripts/) to
// JavaScript in dist/ with tsc, so production runs plain `node` and loads no
// compiler. `--if-stale` is the check the commands that run dist/ make
// first (`npm start`, `npm run eventstore`, the store commands, rebuild): it
// builds only when dist/ is missing or a source is newer than the last build,
// so a fresh checkout, a pull or an edit is never run from an old build.
//
// The time of a build is the mtime of dist/.built, set to when tsc started:
// a source saved while tsc ran counts as newer. Two commands started at once
// (the split layout) take turns under a flock(1) on dist/.build.lock, and the
// second finds the build fresh. Where there are no sources (the Docker image
// ships dist/ alone) there is nothing to check.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.built');
const LOCK = path.join(DIST, '.build.lock');
const TSCONFIG = 'tsconfig.build.json';
/** What the build reads: every .ts under these folders, and these files. */
const SOURCE_DIRS = ['src', 'projections', 'scripts'];
const SOURCE_FILES = ['tsconfig.json', TSCONFIG];

/**
 * Why dist/ must be built again, or undefined when it is fresh.
 * `builtMs`: mtime of the stamp (undefined: never built); `sources`: each source and its mtime.
 */
export function staleReason(builtMs, sources) {
  if (builtMs === undefined) return 'dist/ has not been built';
  const newer = sources.filter((s) => s.mtimeMs > builtMs);
  if (newer.length === 0) return undefined;
  const shown = newer.slice(0, 3).map((s) => s.file).join(', ');
  return `${newer.length} source file(s) changed since the last build (${shown}${newer.length > 3 ? ', ...' : ''})`;
}

function tsFiles(dir, rel) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const name = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...tsFiles(full, name));
    else if (entry.name.endsWith('.ts')) out.push({ file: name, mtimeMs: statSync(full).mtimeMs });
  }
  return out;
}

function sources() {
  const found = SOURCE_DIRS.filter((d) => existsSync(path.join(ROOT, d))).flatMap((d) => tsFiles(path.join(ROOT, d), d));
  for (const f of SOURCE_FILES) if (existsSync(path.join(ROOT, f))) found.push({ file: f, mtimeMs: statSync(path.join(ROOT, f)).mtimeMs });
  return found;
}

const builtMs = () => (existsSync(STAMP) ? statSync(STAMP).mtimeMs : undefined);

/** Runs tsc; exits with its code when it fails. */
function compile(reason) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write(`build: ${reason}, and TypeScript is not installed here: run \`npm ci\` (with dev dependencies), then \`npm run build\`\n`);
    process.exit(1);
  }
  process.stderr.write(`build: ${reason}; compiling to dist/ (tsc -p ${TSCONFIG})\n`);
  const started = new Date();
  const r = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`build: tsc failed (${r.status ?? r.signal}); dist/ was not updated\n`);
    process.exit(r.status ?? 1);
  }
  writeFileSync(STAMP, `${started.toISOString()}\n`);
  utimesSync(STAMP, started, started);
  process.stderr.write(`build: done in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s\n`);
}

function main(args) {
  const ifStale = args.includes('--if-stale');
  if (ifStale && !SOURCE_DIRS.some((d) => existsSync(path.join(ROOT, d)))) return;
  if (ifStale && staleReason(builtMs(), sources()) === undefined) return;
  mkdirSync(DIST, { recursive: true });
  if (!args.includes('--locked')) {
    // Again under the lock: whoever held it may have built meanwhile.
    const r = spawnSync('flock', [LOCK, process.execPath, fileURLToPath(import.meta.url), ...args, '--locked'], { cwd: ROOT, stdio: 'inherit' });
    if (r.error) throw r.error;
    process.exit(r.status ?? 1);
  }
  const reason = ifStale ? staleReason(builtMs(), sources()) : 'npm run build';
  if (reason !== undefined) compile(reason);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
