// Free space in the data directory and the one test of "the disk is full"
// (src/core/disk-space.ts).
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { explainNoSpace, freeBytes, isNoSpace, spaceShortfall } from '../../src/core/disk-space';

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
    const missing = path.join(dir, 'not', 'yet');
    expect(freeBytes(missing)).to.be.greaterThan(0);
    // Needing more than any disk has: the shortfall names the directory as configured, resolved.
    const shortfall = spaceShortfall(missing, Number.MAX_SAFE_INTEGER);
    expect(shortfall?.dataDir).to.equal(path.resolve(missing));
    expect(shortfall?.neededBytes).to.equal(Number.MAX_SAFE_INTEGER);
    expect(shortfall?.freeBytes).to.be.greaterThan(0).and.lessThan(Number.MAX_SAFE_INTEGER);
  });

  it('no shortfall when the space is there, or when nothing is needed (the check is off)', () => {
    expect(spaceShortfall(dir, 1)).to.equal(undefined);
    expect(spaceShortfall(dir, 0)).to.equal(undefined);
  });

  it('explains a start-up failure for want of space in plain words, naming the directory; leaves other failures alone', () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, mkdir '/data/logs'"), { code: 'ENOSPC' });
    const explained = explainNoSpace(enospc, dir) as Error;
    expect(explained.message).to.contain(`The data directory ${path.resolve(dir)} has no space left`);
    expect(explained.message).to.contain(enospc.message);
    expect(explained.message).to.contain('DATA_DIR');
    expect(explained.cause).to.equal(enospc);
    const other = new Error('EACCES');
    expect(explainNoSpace(other, dir)).to.equal(other);
  });
});
