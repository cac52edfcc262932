// Why a store is refused at open: what is wrong, where, and what to do. The
// message is the whole explanation an operator gets (one error line, exit 1),
// so it always ends with the way out.

/** How to get out of a damaged store (docs/operations.md, "Data directory, integrity, backups and disk space"). */
export const DAMAGE_WAY_OUT =
  'Restore the directory from a backup (npm run restore -- BACKUP_DIR), or copy every intact record into a new store with npm run repair-store -- NEW_DIR and use that one.';

export class StoreDamaged extends Error {
  constructor(
    /** The store's directory. */
    readonly dir: string,
    /** What is wrong, where: "data.mdb holds 4096 bytes, 2891776 were written". */
    readonly what: string,
    /** What to do; the way out of damage unless another fits better. */
    readonly todo: string = DAMAGE_WAY_OUT,
  ) {
    super(`the event store in ${dir} is damaged: ${what}. ${todo}`);
    this.name = 'StoreDamaged';
  }
}
