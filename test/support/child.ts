// Runs a TypeScript helper script in a child node process (through tsx) and
// collects its JSON-lines stdout, killing it after a time limit.
import path from 'node:path';
import { spawn } from 'node:child_process';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface ChildResult {
  lines: Array<Record<string, unknown>>;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

export async function runTsScript(script: string, args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' }): Promise<ChildResult> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(timer);
  const lines = stdout
    .split('\n')
    .slice(0, -1)
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return { lines, stderr, code, signal, timedOut };
}
