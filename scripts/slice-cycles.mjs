#!/usr/bin/env node
// Part of `npm run lint`: no two slices need each other, directly or through
// other slices (docs/architecture.md, "Boundaries"). dependency-cruiser checks
// file cycles, and its folder-scoped rules cannot leave out the composition
// files (src/config.ts, src/slice.ts, src/app) that every slice meets; so the
// import graph is collapsed to one node per folder under src/ and searched
// for cycles here, core and app aside.
import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const NOT_SLICES = new Set(['core', 'app']);

/** The slice a collapsed module path names (`src/<slice>`), or undefined. */
const sliceOf = (path) => {
  const m = /^src\/([^/.]+)\/?$/.exec(path);
  return m && !NOT_SLICES.has(m[1]) ? m[1] : undefined;
};

/**
 * Every cycle among slices, each as `a > b > … > a`, from dependency-cruiser's
 * modules collapsed per folder (`{ source, dependencies: [{ resolved }] }`).
 */
export function sliceCycles(modules) {
  const graph = new Map();
  for (const m of modules) {
    const from = sliceOf(m.source);
    if (from === undefined) continue;
    const to = graph.get(from) ?? new Set();
    for (const d of m.dependencies) {
      const s = sliceOf(d.resolved);
      if (s !== undefined && s !== from) to.add(s);
    }
    graph.set(from, to);
  }
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const cycles = [];
  const visit = (u) => {
    state.set(u, 1);
    path.push(u);
    for (const v of [...(graph.get(u) ?? [])].sort()) {
      if (state.get(v) === 1) cycles.push([...path.slice(path.indexOf(v)), v].join(' > '));
      else if (!state.has(v)) visit(v);
    }
    path.pop();
    state.set(u, 2);
  };
  for (const u of [...graph.keys()].sort()) if (!state.has(u)) visit(u);
  return cycles;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const json = execFileSync('npx', ['depcruise', 'src', '--output-type', 'json', '--collapse', '^src/[^/]+'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const cycles = sliceCycles(JSON.parse(json).modules);
  if (cycles.length === 0) {
    process.stdout.write('✔ no slices that need each other\n');
  } else {
    process.stderr.write(`slices that need each other (move the shared contract to the lower slice, or let src/app pass it in):\n${cycles.map((c) => `  ${c}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}
