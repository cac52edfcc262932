// The lock of an engine partition's snapshot directory (see ../core/dir-lock.ts).
import type { Logger } from '../core/logger';
import { DirectoryLocked, lockDirectory, type DirLock } from '../core/dir-lock';

/**
 * The lock of a partition's snapshot directory, held while this worker runs
 * the partition: one process at a time writes and prunes its snapshots.
 */
export class SnapshotDirLock {
  private lock: DirLock | undefined;
  private warned = false;
  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  get held(): boolean {
    return this.lock !== undefined;
  }

  /** Tries once; false (logged once) while another process holds it. */
  async take(): Promise<boolean> {
    try {
      this.lock = await lockDirectory(this.dir, 'item engine snapshots');
      if (this.warned) this.log.info('engine snapshot directory taken over', { dir: this.dir });
      return true;
    } catch (err) {
      if (!(err instanceof DirectoryLocked)) this.log.warn('engine snapshot directory cannot be locked', { dir: this.dir, err: String(err) });
      else if (!this.warned) this.log.warn('engine snapshot directory held by another process; waiting', { dir: this.dir, holderPid: err.holder.pid });
      this.warned = true;
      return false;
    }
  }

  async release(): Promise<void> {
    await this.lock?.release();
    this.lock = undefined;
  }
}
