// Where the installation's own files are (package.json, console/,
// node_modules): the nearest directory above this module that holds a
// package.json. A fixed number of `..` would be wrong for one of the two ways
// the code runs: from its TypeScript sources (src/core/ under the root) or
// compiled (dist/src/core/ under the root, `npm run build`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as t from 'io-ts';
import { decodeStored } from './stored-json';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}: the installation is incomplete`);
  }
}

export const APP_ROOT = findRoot(__dirname);

const PackageCodec = t.type({ version: t.string });

/** The version of package.json, read once. */
export const APP_VERSION = decodeStored(PackageCodec, readFileSync(path.join(APP_ROOT, 'package.json'), 'utf8'), 'package.json').version;
