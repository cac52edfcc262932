import { expect } from 'chai';
import { ARGON2_OPTIONS, hashPassword, PasswordVerifier, verifyPassword } from '../../src/auth/password';

describe('auth/password', function () {
  this.timeout(20_000);
  let aliceHash: string;
  let aliceNewHash: string;

  before(async () => {
    aliceHash = await hashPassword('s3cret:with:colons');
    aliceNewHash = await hashPassword('changed');
  });

  describe('hash and verify', () => {
    it('hashes with argon2id, 19 MiB, t=2, p=1 and a random salt', async () => {
      expect(ARGON2_OPTIONS).to.include({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
      expect(aliceHash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[^$]+\$[^$]+$/);
      expect(await hashPassword('s3cret:with:colons')).to.not.equal(aliceHash);
      expect(aliceHash).to.not.include('s3cret');
    });

    it('verifies the right password and refuses a wrong one', async () => {
      expect(await verifyPassword(aliceHash, 's3cret:with:colons')).to.equal(true);
      expect(await verifyPassword(aliceHash, 's3cret:with:colon')).to.equal(false);
      expect(await verifyPassword(aliceHash, '')).to.equal(false);
    });

    it('refuses (does not throw) against a corrupt stored hash', async () => {
      expect(await verifyPassword('not a hash', 'x')).to.equal(false);
    });
  });

  describe('PasswordVerifier cache', () => {
    // Counts the slow (argon2) checks so that hits and misses are visible.
    function counting(clock = () => 0, opts: { maxEntries?: number } = {}) {
      const calls: string[] = [];
      const verifier = new PasswordVerifier({
        clock,
        ttlMs: 1000,
        ...opts,
        slowVerify: async (hash, password) => {
          calls.push(password);
          return verifyPassword(hash, password);
        },
      });
      return { verifier, calls };
    }

    it('pays the slow check once, then answers the same password from the cache', async () => {
      const { verifier, calls } = counting();
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(calls).to.have.length(1);
      expect(verifier.size).to.equal(1);
    });

    it('never accepts a wrong password from the cache and never caches failures', async () => {
      const { verifier, calls } = counting();
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      // Same length as the right password: only the digest comparison can tell.
      expect(await verifier.verify('alice', 's3cret:with:colonZ', aliceHash)).to.equal(false);
      expect(await verifier.verify('alice', 'x', aliceHash)).to.equal(false);
      expect(await verifier.verify('alice', 'x', aliceHash)).to.equal(false);
      expect(calls).to.deep.equal(['s3cret:with:colons', 's3cret:with:colonZ', 'x', 'x']);
      // The right password still hits after the failures.
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(calls).to.have.length(4);
    });

    it('a changed stored hash invalidates the entry: the old password no longer passes', async () => {
      const { verifier, calls } = counting();
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceNewHash)).to.equal(false);
      expect(await verifier.verify('alice', 'changed', aliceNewHash)).to.equal(true);
      expect(await verifier.verify('alice', 'changed', aliceNewHash)).to.equal(true);
      expect(calls).to.deep.equal(['s3cret:with:colons', 's3cret:with:colons', 'changed']);
    });

    it('does not let one user hit another user cached entry', async () => {
      const { verifier, calls } = counting();
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      expect(await verifier.verify('mallory', 's3cret:with:colons', aliceNewHash)).to.equal(false);
      expect(calls).to.have.length(2);
    });

    it('expires entries after the TTL', async () => {
      let now = 0;
      const { verifier, calls } = counting(() => now);
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      now = 999;
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      expect(calls).to.have.length(1);
      now = 1000;
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(calls).to.have.length(2);
    });

    it('holds at most maxEntries users, dropping the least recently verified', async () => {
      const { verifier, calls } = counting(() => 0, { maxEntries: 2 });
      await verifier.verify('a', 's3cret:with:colons', aliceHash);
      await verifier.verify('b', 's3cret:with:colons', aliceHash);
      await verifier.verify('a', 's3cret:with:colons', aliceHash); // hit: a is now the most recent
      await verifier.verify('c', 's3cret:with:colons', aliceHash); // evicts b
      expect(verifier.size).to.equal(2);
      expect(calls).to.have.length(3);
      await verifier.verify('a', 's3cret:with:colons', aliceHash);
      expect(calls).to.have.length(3);
      await verifier.verify('b', 's3cret:with:colons', aliceHash);
      expect(calls).to.have.length(4);
    });

    it('forget drops a user entry', async () => {
      const { verifier, calls } = counting();
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      verifier.forget('alice');
      await verifier.verify('alice', 's3cret:with:colons', aliceHash);
      expect(calls).to.have.length(2);
    });

    it('works with the default argon2 check', async () => {
      const verifier = new PasswordVerifier();
      expect(await verifier.verify('alice', 'nope', aliceHash)).to.equal(false);
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
      expect(await verifier.verify('alice', 's3cret:with:colons', aliceHash)).to.equal(true);
    });
  });
});
