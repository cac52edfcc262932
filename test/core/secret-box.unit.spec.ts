import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { isSealed, loadSecretKey, SECRET_KEY_FILE, secretBox, SecretUnusable } from '../../src/core/secret-box';

describe('secret box (sealed secrets tagtrail presents to others)', () => {
  it('given a secret, when sealed, then the sealed form differs each time, hides it and opens to it', () => {
    const box = secretBox(randomBytes(32));
    const a = box.seal('impinj');
    const b = box.seal('impinj');
    expect(a).not.to.equal(b);
    expect(isSealed(a)).to.equal(true);
    expect(a).not.to.contain('impinj');
    expect(box.open(a)).to.equal('impinj');
  });

  it('given another key or a tampered value, when opened, then it throws a SecretUnusable naming the key', () => {
    const sealed = secretBox(randomBytes(32)).seal('impinj');
    expect(() => secretBox(randomBytes(32)).open(sealed)).to.throw(SecretUnusable, /READER_SECRET_KEY/);
    const box = secretBox(randomBytes(32));
    const mine = box.seal('impinj');
    const raw = Buffer.from(mine.slice('sealed:v1:'.length), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    const tampered = `sealed:v1:${raw.toString('base64url')}`;
    expect(() => box.open(tampered)).to.throw(SecretUnusable);
  });

  it('given a value stored before sealing, when opened, then it is returned as it is', () => {
    expect(secretBox(randomBytes(32)).open('legacy-clear')).to.equal('legacy-clear');
  });

  it('given no configured key, when loaded twice, then one key file (0600) in the data dir serves both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tagtrail-secret-'));
    try {
      const first = loadSecretKey(join(dir, 'data'), undefined);
      const again = loadSecretKey(join(dir, 'data'), undefined);
      expect(first.equals(again)).to.equal(true);
      expect(statSync(join(dir, 'data', SECRET_KEY_FILE)).mode & 0o777).to.equal(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('given READER_SECRET_KEY, when loaded, then it is used; a key of the wrong length is refused', () => {
    const key = randomBytes(32);
    expect(loadSecretKey('/nonexistent', key.toString('base64')).equals(key)).to.equal(true);
    expect(() => loadSecretKey('/nonexistent', randomBytes(16).toString('base64'))).to.throw(/READER_SECRET_KEY/);
  });
});
