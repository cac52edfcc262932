import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { ALL_ROLES, hasAnyRole, normaliseRoles, Role } from '../../src/auth/roles';

const user = (...roles: Role[]) => ({ name: 'u', roles });

describe('auth/roles', () => {
  it('decodes the four roles and refuses anything else', () => {
    for (const role of ALL_ROLES) expect(isRight(Role.decode(role))).to.equal(true);
    expect(isLeft(Role.decode('admin'))).to.equal(true);
    expect(isLeft(Role.decode('Root'))).to.equal(true);
    expect(isLeft(Role.decode(3))).to.equal(true);
  });

  it('allows a caller holding any one of the required roles', () => {
    expect(hasAnyRole(user('JobRunner'), ['ConfigManager', 'JobRunner'])).to.equal(true);
    expect(hasAnyRole(user('DataReader', 'ConfigManager'), ['ConfigManager'])).to.equal(true);
  });

  it('refuses a caller holding none of them', () => {
    expect(hasAnyRole(user('DataReader'), ['ConfigManager', 'JobRunner'])).to.equal(false);
    expect(hasAnyRole(user(), ['DataReader'])).to.equal(false);
  });

  it('always allows Admin, even where Admin is not listed', () => {
    expect(hasAnyRole(user('Admin'), ['DataReader'])).to.equal(true);
    expect(hasAnyRole(user('Admin'), [])).to.equal(true);
  });

  it('treats an empty requirement as any authenticated user, even one without roles', () => {
    expect(hasAnyRole(user(), [])).to.equal(true);
    expect(hasAnyRole(user('DataReader'), [])).to.equal(true);
  });

  it('normalises roles: no duplicates, canonical order', () => {
    expect(normaliseRoles(['JobRunner', 'Admin', 'JobRunner'])).to.deep.equal(['Admin', 'JobRunner']);
    expect(normaliseRoles([])).to.deep.equal([]);
  });
});
