// npm run bench:profile-top -- <file.cpuprofile> [count] — the top frames of
// a V8 CPU profile (as `--cpu-prof` writes them, e.g. BENCH_CPU_PROF_DIR of
// bench:pipeline) by self time, summed by function and file: the whole
// process, then only this repository's own code (src/, projections/), which
// is what a change to it can move. Idle, GC and program (native) time are
// listed on their own line so shares can be read against the busy time.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npm run bench:profile-top -- <file.cpuprofile> [count]');
  process.exit(2);
}
const count = Number(countArg ?? 15);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const root = process.cwd();

// Self time per node: the time delta after each sample is charged to the node sampled.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]!;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}

// Line numbers are left out: under tsx they are those of the compiled module, not of the source.
const nameOf = ({ callFrame: { functionName, url } }: ProfileNode): string =>
  `${functionName || '(anonymous)'}${url === '' ? '' : ` ${url.startsWith('file://') ? relative(root, new URL(url).pathname) : url}`}`;
const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
/** The nearest caller written in JavaScript (a native frame such as writev says little alone). */
const jsCallerOf = (node: ProfileNode): string => {
  for (let p = parentOf.get(node.id); p !== undefined; p = parentOf.get(p.id)) if (p.callFrame.url !== '' && !p.callFrame.url.startsWith('node:')) return nameOf(p);
  return '(none)';
};

const byFrame = new Map<string, number>();
const callers = new Map<string, Map<string, number>>();
let totalUs = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  totalUs += us;
  const key = nameOf(node);
  byFrame.set(key, (byFrame.get(key) ?? 0) + us);
  const byCaller = callers.get(key) ?? new Map<string, number>();
  callers.set(key, byCaller);
  const caller = jsCallerOf(node);
  byCaller.set(caller, (byCaller.get(caller) ?? 0) + us);
}

const ms = (us: number): string => (us / 1000).toFixed(0).padStart(7);
const special = ['(idle)', '(garbage collector)', '(program)'];
const sorted = [...byFrame.entries()].sort((a, b) => b[1] - a[1]);
const own = sorted.filter(([k]) => /(^| |\/)(src|projections)\//.test(k) && !k.includes('node_modules'));
const busyUs = totalUs - (byFrame.get('(idle)') ?? 0);

console.log(`${file}: sampled ${ms(totalUs).trim()} ms, busy ${ms(busyUs).trim()} ms; ${special.map((s) => `${s} ${ms(byFrame.get(s) ?? 0).trim()} ms`).join(', ')}`);
console.log(`top ${count} frames by self time (ms, share of busy):`);
for (const [k, us] of sorted.filter(([k]) => !special.includes(k)).slice(0, count)) {
  const top = [...(callers.get(k) ?? [])].sort((a, b) => b[1] - a[1])[0];
  console.log(`${ms(us)}  ${((100 * us) / busyUs).toFixed(1).padStart(5)} %  ${k}${top !== undefined && !k.includes(' ') ? `  <- ${top[0]}` : ''}`);
}
console.log(`own code (src/, projections/): ${ms(own.reduce((n, [, us]) => n + us, 0)).trim()} ms; top ${count}:`);
for (const [k, us] of own.slice(0, count)) console.log(`${ms(us)}  ${((100 * us) / busyUs).toFixed(1).padStart(5)} %  ${k}`);
