import { expect } from 'chai';
import { COMMON_PASSWORDS } from '../../src/users/common-passwords';
import { DEFAULT_ADMIN_PASSWORD } from '../../src/users/bootstrap';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from '../../src/users/password-policy';

describe('users/password-policy', () => {
  it('given 12 to 256 characters, not the name, not common, then the password is accepted', () => {
    for (const pw of ['correct horse', 'x'.repeat(12), 'k'.repeat(256), 'Zürich-Lager-7', 'tagtrail-ops-rota']) {
      expect(passwordProblem(pw, 'alice'), pw).to.equal(undefined);
    }
  });

  it('given fewer than 12 characters, then the reason says how many it has', () => {
    expect(passwordProblem('', 'alice')).to.equal('must be at least 12 characters, got 0');
    expect(passwordProblem('elevenchars', 'alice')).to.equal('must be at least 12 characters, got 11');
  });

  it('counts characters, not UTF-16 units: 6 emoji are 6 characters, not 12', () => {
    expect(passwordProblem('🔑'.repeat(6), 'alice')).to.equal('must be at least 12 characters, got 6');
    expect(passwordProblem('🔑'.repeat(12), 'alice')).to.equal(undefined);
  });

  it('given more than 256 characters, then it is refused', () => {
    expect(passwordProblem('k'.repeat(257), 'alice')).to.equal('must be at most 256 characters, got 257');
    expect(MIN_PASSWORD_LENGTH).to.equal(12);
    expect(MAX_PASSWORD_LENGTH).to.equal(256);
  });

  it('given the user name, in any case, then it is refused', () => {
    expect(passwordProblem('warehouse-operator', 'warehouse-operator')).to.equal('must not be the user name');
    expect(passwordProblem('Warehouse-Operator', 'warehouse-operator')).to.equal('must not be the user name');
  });

  it('given a common password, in any case, then it is refused; the factory default among them', () => {
    for (const pw of ['password1234', 'PassWord1234', 'qwertyuiop123', '123456789012', 'iloveyou2024', DEFAULT_ADMIN_PASSWORD]) {
      expect(passwordProblem(pw, 'alice'), pw).to.match(/^is one of the most common passwords/);
    }
  });

  it('lists only entries the length rule lets through, in lower case, several hundred of them', () => {
    const misfits = [...COMMON_PASSWORDS].filter((w) => w.length < MIN_PASSWORD_LENGTH || w !== w.toLowerCase());
    expect(misfits).to.deep.equal([]);
    expect(COMMON_PASSWORDS.size).to.be.greaterThan(500);
  });
});
