// Free space in the data directory and the one test of "the disk is full"
// (src/core/disk-space.ts).
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { freeBytes, isNoSpace } from '../../src/core/disk-space';

describe('disk space', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tagtrail-disk-space-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a full disk is an ENOSPC or EDQUOT (as lmdb\'s errno or as Node\'s code) or LMDB\'s map full, nothing else', () => {
    for (const code of [constants.errno.ENOSPC, 'ENOSPC', 'EDQUOT', -30792]) {
      expect(isNoSpace(Object.assign(new Error('full'), { code })), String(code)).to.equal(true);
    }
    for (const err of [new Error('No space left on device'), Object.assign(new Error('x'), { code: 'EACCES' }), { code: constants.errno.EIO }, undefined, null, 'ENOSPC']) {
      expect(isNoSpace(err), String(err)).to.equal(false);
    }
  });

  it('an I/O error counts as a full disk only where the filesystem written to has (all but) no room left', () => {
    const eio = Object.assign(new Error('Input/output error'), { code: constants.errno.EIO });
    expect(isNoSpace(eio)).to.equal(false);
    expect(isNoSpace(eio, dir), 'a temporary directory with room').to.equal(false);
  });

  it('measures the free space of a directory not created yet on the filesystem it will be created in', () => {
    expect(freeBytes(path.join(dir, 'not', 'yet'))).to.be.greaterThan(0);
  });
});
