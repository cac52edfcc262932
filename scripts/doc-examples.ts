// The curl examples of the documentation, run as written against a service,
// so that what a reader copies works. `npm run docs:examples -- [--url URL]
// [file.md ...]` runs them against a running tagtrail (default
// http://localhost:8080, every docs/*.md and README.md); the e2e test
// test/docs/examples.e2e.spec.ts runs them against a fresh service per file.
//
// What counts as an example: in a ```sh block, every command that calls curl,
// every shell variable assignment (TOKEN=$(curl ...)) and printf/echo (to
// write a file an example sends), in document
// order, in one bash process per file so later examples can use what earlier
// ones set. Other commands (npm start, docker compose) are not run. Commands
// for another address than http://localhost:8080 (the Docker Compose port)
// are listed as skipped. The expected HTTP status is the one a comment line
// right after the command starts with (`# 409 {...}`, `# 204`,
// `# HTTP/1.1 202 Accepted`); otherwise any 2xx.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const DOCS_BASE_URL = 'http://localhost:8080';

export interface DocExample {
  readonly file: string;
  /** 1-based line of the command's first line. */
  readonly line: number;
  readonly command: string;
  /** The documented status, or null: any 2xx. */
  readonly expected: number | null;
  /** False for assignments without curl: run, not checked. */
  readonly checked: boolean;
}

export interface ExampleResult extends DocExample {
  /** The status of the last response, null when curl got none. */
  readonly status: number | null;
  readonly ok: boolean;
  readonly output: string;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Harmless helpers examples use to prepare a file: run (in a temporary directory), not checked. */
const HELPER = /^(printf|echo) /;

/** Whether a shell command ends inside a quoted string (a body spread over lines). */
function openQuote(command: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (single) single = c !== "'";
    else if (c === '\\') i++;
    else if (c === "'" && !double) single = true;
    else if (c === '"') double = !double;
  }
  return single || double;
}

function expectedStatus(comment: string): number | null {
  const m = /^#\s*(?:HTTP\/[\d.]+\s+)?(\d{3})\b/.exec(comment);
  return m?.[1] === undefined ? null : Number(m[1]);
}

/** The examples of one markdown document, in order. */
export function extractDocExamples(markdown: string, file: string): { run: DocExample[]; skipped: DocExample[] } {
  const lines = markdown.split('\n');
  const run: DocExample[] = [];
  const skipped: DocExample[] = [];
  let inSh = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!inSh) {
      if (/^```(sh|bash|shell)\s*$/.test(raw.trim())) inSh = true;
      continue;
    }
    if (raw.trim().startsWith('```')) {
      inSh = false;
      continue;
    }
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    const start = i;
    let command = raw;
    while ((command.endsWith('\\') || openQuote(command)) && i + 1 < lines.length) command = `${command}\n${lines[++i]!}`;
    const isCurl = /(^|[\s($|])curl\s/.test(command);
    if (!isCurl && !ASSIGNMENT.test(command.trim()) && !HELPER.test(command.trim())) continue;
    const next = lines[i + 1]?.trim() ?? '';
    const example: DocExample = { file, line: start + 1, command: command.trim(), expected: next.startsWith('#') ? expectedStatus(next) : null, checked: isCurl };
    if (isCurl && !command.includes(DOCS_BASE_URL) && /https?:\/\//.test(command)) skipped.push(example);
    else run.push(example);
  }
  return { run, skipped };
}

/**
 * Runs the examples of one file in one bash process against `baseUrl`
 * (replacing http://localhost:8080). curl writes the response headers of
 * each call to a file, from which the status is read after the command.
 */
export async function runDocExamples(examples: readonly DocExample[], baseUrl: string, timeoutMs = 120_000): Promise<ExampleResult[]> {
  const marker = `@@example-${process.pid}-${Date.now()}@@`;
  const script = [
    'set -u',
    'cd "$(mktemp -d)"',
    '__hdr="$PWD/.headers"',
    // Every curl of the examples dumps its headers; the last status line is the answer.
    'curl() { command curl -sS --max-time 20 -D "$__hdr" "$@"; }',
    `__check() { local s; s=$(grep -E '^HTTP/' "$__hdr" 2>/dev/null | tail -1 | awk '{print $2}'); printf '\\n${marker} %s %s\\n' "$1" "\${s:-none}"; : > "$__hdr"; }`,
    ...examples.flatMap((e, i) => [e.command.split(DOCS_BASE_URL).join(baseUrl), `__check ${i}`]),
  ].join('\n');
  // Not spawnSync: the service under test may run in this very process.
  const res = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
  const out = res.stdout;
  const results: ExampleResult[] = [];
  let rest = out;
  for (let i = 0; i < examples.length; i++) {
    const e = examples[i]!;
    const at = rest.indexOf(`${marker} ${i} `);
    if (at < 0) {
      results.push({ ...e, status: null, ok: false, output: `${rest}\n${res.stderr}`.trim().slice(-2000) });
      rest = '';
      continue;
    }
    const end = rest.indexOf('\n', at);
    const statusText = rest.slice(at, end < 0 ? undefined : end).split(' ')[2] ?? 'none';
    const status = /^\d{3}$/.test(statusText) ? Number(statusText) : null;
    const output = rest.slice(0, at).trim();
    rest = end < 0 ? '' : rest.slice(end + 1);
    const ok = !e.checked || (status !== null && (e.expected === null ? status >= 200 && status < 300 : status === e.expected));
    results.push({ ...e, status, ok, output: output.slice(-2000) });
  }
  return results;
}

/** README.md and docs/*.md of the repository. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => path.join('docs', f));
  return ['README.md', ...docs];
}

export function describeResult(r: ExampleResult): string {
  const want = r.expected === null ? '2xx' : String(r.expected);
  return `${r.file}:${r.line}: ${r.ok ? 'ok' : 'FAILED'} (got ${r.status ?? 'no answer'}, documented ${want})${r.ok ? '' : `\n  ${r.command.replace(/\n/g, '\n  ')}\n  -> ${r.output.replace(/\n/g, '\n     ')}`}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const root = path.resolve(__dirname, '..');
  let url = DOCS_BASE_URL;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--url') url = argv[++i] ?? url;
    else files.push(argv[i]!);
  }
  let failed = 0;
  for (const file of files.length ? files : documentationFiles(root)) {
    const { run, skipped } = extractDocExamples(readFileSync(path.resolve(root, file), 'utf8'), file);
    if (run.length === 0) continue;
    for (const r of await runDocExamples(run, url.replace(/\/$/, ''))) {
      if (!r.ok) failed++;
      process.stdout.write(`${describeResult(r)}\n`);
    }
    for (const s of skipped) process.stdout.write(`${s.file}:${s.line}: skipped (not for ${DOCS_BASE_URL})\n`);
  }
  process.stdout.write(failed ? `${failed} example(s) failed\n` : 'every example ran as documented\n');
  return failed ? 1 : 0;
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
