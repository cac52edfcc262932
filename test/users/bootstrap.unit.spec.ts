import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { bootstrapAdmin, bootstrapCommand, DEFAULT_ADMIN_PASSWORD } from '../../src/users/bootstrap';
import { userDecider } from '../../src/users/decide';
import { toResponse } from '../../src/users/response';

const now = new Date(0);

describe('users/bootstrap and response', () => {
  it('without ADMIN_PASSWORD: admin/admindefault with every role, marked as the default password', () => {
    for (const env of [undefined, '']) {
      const admin = bootstrapAdmin(env);
      expect(admin).to.deep.include({ name: 'admin', password: DEFAULT_ADMIN_PASSWORD });
      expect([...admin.roles].sort()).to.deep.equal(['Admin', 'ConfigManager', 'DataReader', 'JobRunner']);
      expect(admin.defaultPassword).to.equal(true);
    }
    expect(DEFAULT_ADMIN_PASSWORD).to.equal('admindefault');
  });

  it('with ADMIN_PASSWORD: that password, not the default', () => {
    const admin = bootstrapAdmin('s3cret');
    expect(admin.password).to.equal('s3cret');
    expect(admin.defaultPassword).to.equal(false);
  });

  it('creates admin on an empty stream; a second instance racing it gets UserExists', () => {
    const command = bootstrapCommand(bootstrapAdmin(), 'hash');
    const first = decideOnHistory(userDecider, [], command, now);
    if (!isRight(first)) return expect.fail('expected events');
    expect(first.right.events).to.deep.equal([
      { type: 'UserCreated', data: { name: 'admin', roles: ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'], passwordHash: 'hash' } },
    ]);
    const second = decideOnHistory(userDecider, [...first.right.events], command, now);
    expect(isLeft(second) && second.left.code).to.equal('UserExists');
  });

  it('toResponse gives name and roles only, never the hash', () => {
    const stored = { status: 'active', name: 'a', roles: ['Admin'] as const, passwordHash: '$argon2id$x' };
    const response = toResponse({ ...stored, roles: [...stored.roles] });
    expect(response).to.deep.equal({ name: 'a', roles: ['Admin'] });
    expect(JSON.stringify(response)).to.not.include('argon2');
  });
});
