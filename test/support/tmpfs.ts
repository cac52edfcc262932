// A small filesystem of a test's own, to fill up: a tmpfs mounted on a fresh
// temporary directory. Mounting needs root (and a system that permits it);
// without, the test says why it is skipped. Only the test's own mount is
// ever filled or unmounted.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeBytes } from '../../src/core/disk-space';

export interface Tmpfs {
  readonly dir: string;
  /** Writes `file` (under dir) until at most `leaveBytes` are free, or until the disk refuses (leaveBytes 0). */
  fill(file: string, leaveBytes?: number): void;
  /** Unmounts and removes the directory (every process writing to it must be gone). */
  unmount(): void;
}

const CHUNK = 1024 * 1024;

function fillFile(target: string, leaveBytes: number): void {
  const fd = openSync(target, 'a');
  try {
    for (;;) {
      const free = freeBytes(path.dirname(target));
      const size = Math.min(CHUNK, free - leaveBytes);
      if (size <= 0) return;
      try {
        writeSync(fd, Buffer.alloc(size));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
        throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** The mount, or why it cannot be had (the reason to skip with). */
export function mountTmpfs(sizeMb: number): Tmpfs | { readonly unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'tagtrail-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const detail = (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
    return { unavailable: `mount -t tmpfs is not permitted here (${detail})` };
  }
  return {
    dir,
    fill: (file, leaveBytes = 0) => fillFile(path.join(dir, file), leaveBytes),
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
