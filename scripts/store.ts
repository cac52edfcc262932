// The embedded event store's maintenance commands (docs/operations.md, "Data
// directory, integrity, backups and disk space"):
//
//   npm run verify-store [-- STORE_DIR]   check every record (default DATA_DIR/eventstore)
//   npm run backup -- DIR                 consistent copy while the service runs
//   npm run restore -- DIR                put a backup (or a repair) in DATA_DIR; the service must be stopped
//   npm run repair-store -- NEW_DIR       copy every intact record into a new data directory
//
// A backup or repair is laid out as a data directory: DIR/eventstore holds
// the store, DIR/reader-secret.key the key of the sealed secrets in it (the
// log's sealed values cannot be read without it). Progress goes to stdout as
// JSON log lines; the last line of a command says what it did. Exit codes:
// 0 done, 1 refused or damage found, 2 bad usage.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrThrow } from '../src/config';
import { createLogger, setLogLevel, type Logger } from '../src/core/logger';
import { lockDirectory } from '../src/core/dir-lock';
import { SECRET_KEY_FILE } from '../src/core/secret-box';
import { EventLog } from '../src/eventstore/storage/log';
import { DATA_FILE } from '../src/eventstore/storage/datafile';
import { MARKER_FILE, newMarker, readMarker, writeMarker } from '../src/eventstore/storage/marker';
import type { Finding } from '../src/eventstore/storage/verify';
import { checkRecordsInChild, checkStructure } from '../src/eventstore/storage/structure';
import { StoreDamaged } from '../src/eventstore/storage/damage';
import { repairInto } from '../src/eventstore/storage/repair';
import { DEFAULT_MAX_APPEND_SIZE } from '../src/eventstore/server';
import { runMain } from './run-main';

const STORE = 'eventstore';
const USAGE = `usage: npm run verify-store [-- STORE_DIR] | npm run backup -- DIR | npm run restore -- DIR | npm run repair-store -- NEW_DIR\n`;

class Refused extends Error {}

const percent = (n: number, of: number): number => (of === 0 ? 100 : Math.round((n / of) * 1000) / 10);
const listed = (findings: readonly Finding[]): string =>
  findings.slice(0, 20).map((f) => `position ${f.position}: ${f.reason}`).join('; ') + (findings.length > 20 ? `; and ${findings.length - 20} more` : '');

function openReadOnly(storeDir: string, skipEndsCheck = false): EventLog {
  if (!existsSync(path.join(storeDir, DATA_FILE))) throw new Refused(`${storeDir} holds no event store (${DATA_FILE} is missing)`);
  return new EventLog(storeDir, { maxAppendSize: DEFAULT_MAX_APPEND_SIZE, readOnly: true, skipEndsCheck });
}

/**
 * Every record of the store in `storeDir` checked, in child processes (LMDB
 * can die of a damaged page; the command must not): first its trees, then
 * every record. StoreDamaged when any is damaged.
 */
async function verifyStore(storeDir: string, logger: Logger): Promise<string> {
  if (!existsSync(path.join(storeDir, DATA_FILE))) throw new Refused(`${storeDir} holds no event store (${DATA_FILE} is missing)`);
  const started = Date.now();
  checkStructure(storeDir);
  let done = { checked: 0, last: 0 };
  await checkRecordsInChild(storeDir, (p) => {
    done = p;
    logger.info('verifying', { storeDir, checked: p.checked, total: p.total, percent: percent(p.checked, p.total), damaged: p.damaged });
  });
  return `${storeDir}: all ${done.checked} records sound (head position ${done.last}), checked in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

function ensureEmptyDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Refused(`${dir} is not empty: give a new directory`);
  mkdirSync(dir, { recursive: true });
}

/** The key file of `fromDataDir`, copied beside the store in `toDataDir` (mode 0600). */
function copyKey(fromDataDir: string, toDataDir: string): boolean {
  const from = path.join(fromDataDir, SECRET_KEY_FILE);
  if (!existsSync(from)) return false;
  copyFileSync(from, path.join(toDataDir, SECRET_KEY_FILE));
  return true;
}

async function backup(dataDir: string, dir: string, logger: Logger): Promise<string> {
  const target = path.join(dir, STORE);
  ensureEmptyDir(dir);
  mkdirSync(target);
  const source = openReadOnly(path.join(dataDir, STORE));
  try {
    logger.info('backing up', { from: source.dir, to: target, records: source.recordCount() });
    await source.backup(target);
  } finally {
    await source.close();
  }
  const marker = readMarker(path.join(dataDir, STORE)) ?? newMarker(0);
  writeMarker(target, { ...marker, dataFileBytes: statSync(path.join(target, DATA_FILE)).size });
  const key = copyKey(dataDir, dir);
  const verified = await verifyStore(target, logger);
  return `backed up to ${dir}${key ? ' with the reader secret key' : ''}; ${verified}`;
}

/** Moves what `restore` replaces into `aside`: the store's files and a key that differs from the backup's. */
function moveAside(dataDir: string, backupDir: string, aside: string): string[] {
  const moved: string[] = [];
  const move = (from: string, name: string): void => {
    mkdirSync(aside, { recursive: true });
    renameSync(from, path.join(aside, name));
    moved.push(name);
  };
  for (const name of [DATA_FILE, 'lock.mdb', MARKER_FILE]) {
    const file = path.join(dataDir, STORE, name);
    if (existsSync(file)) move(file, name);
  }
  const key = path.join(dataDir, SECRET_KEY_FILE);
  const backupKey = path.join(backupDir, SECRET_KEY_FILE);
  if (existsSync(key) && existsSync(backupKey) && !readFileSync(key).equals(readFileSync(backupKey))) move(key, SECRET_KEY_FILE);
  return moved;
}

async function restore(dataDir: string, backupDir: string, logger: Logger): Promise<string> {
  const storeDir = path.join(dataDir, STORE);
  const lock = await lockDirectory(storeDir, 'npm run restore');
  try {
    await verifyStore(path.join(backupDir, STORE), logger);
    const aside = path.join(dataDir, `${STORE}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const moved = moveAside(dataDir, backupDir, aside);
    for (const name of [DATA_FILE, MARKER_FILE]) copyFileSync(path.join(backupDir, STORE, name), path.join(storeDir, name));
    if (!existsSync(path.join(dataDir, SECRET_KEY_FILE))) copyKey(backupDir, dataDir);
    const restored = openReadOnly(storeDir);
    const records = restored.recordCount();
    await restored.close();
    return `restored ${records} records from ${backupDir} into ${storeDir}${moved.length > 0 ? `; the replaced files (${moved.join(', ')}) are in ${aside}` : ''}`;
  } finally {
    await lock.release();
  }
}

/** The damaged store, for reading record by record; Refused when LMDB cannot walk it (only a backup helps then). */
function openForRepair(storeDir: string): EventLog {
  try {
    return openReadOnly(storeDir, true);
  } catch (err) {
    if (!(err instanceof StoreDamaged)) throw err;
    throw new Refused(`${err.what}: repair-store copies the records of a store whose structure LMDB can still walk, and this one's it cannot. Restore the directory from a backup (npm run restore -- BACKUP_DIR).`);
  }
}

async function repair(dataDir: string, newDataDir: string, logger: Logger): Promise<string> {
  const storeDir = path.join(dataDir, STORE);
  const lock = await lockDirectory(storeDir, 'npm run repair-store');
  try {
    ensureEmptyDir(newDataDir);
    const source = openForRepair(storeDir);
    const target = new EventLog(path.join(newDataDir, STORE), { maxAppendSize: DEFAULT_MAX_APPEND_SIZE });
    try {
      const result = await repairInto(source, target, (p) =>
        logger.info('repairing', { from: storeDir, to: target.dir, read: p.read, total: p.total, percent: percent(p.read, p.total), copied: p.copied, skipped: p.skipped.length }),
      );
      const key = copyKey(dataDir, newDataDir);
      const lost = result.skipped.length === 0 ? 'no record was damaged' : `${result.skipped.length} damaged records left out: ${listed(result.skipped)}`;
      return `repaired into ${newDataDir}: ${result.copied} of ${result.read} records copied, ${lost}${key ? '; the reader secret key copied' : ''}. Check it with npm run verify-store -- ${target.dir}, then npm run restore -- ${newDataDir}`;
    } finally {
      await Promise.all([source.close(), target.close()]);
    }
  } finally {
    await lock.release();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, arg, ...rest] = argv;
  const logger = createLogger(`store.${command ?? ''}`);
  if (rest.length > 0 || (command !== 'verify' && arg === undefined)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfigOrThrow(process.env);
  setLogLevel(config.logLevel);
  const dataDir = path.resolve(config.dataDir);
  const dir = arg === undefined ? undefined : path.resolve(arg);
  try {
    const run: Record<string, () => Promise<string>> = {
      verify: () => verifyStore(dir ?? path.join(dataDir, STORE), logger),
      backup: () => backup(dataDir, dir ?? '', logger),
      restore: () => restore(dataDir, dir ?? '', logger),
      repair: () => repair(dataDir, dir ?? '', logger),
    };
    const action = command === undefined ? undefined : run[command];
    if (!action) {
      process.stderr.write(USAGE);
      return 2;
    }
    logger.info('done', { result: await action() });
    return 0;
  } catch (err) {
    logger.error('refused', { reason: err instanceof Error ? err.message : String(err) });
    return 1;
  }
}

if (require.main === module) runMain(main);
