import { expect } from 'chai';
import { parseAuthorization } from '../../src/auth/header';

const basic = (s: string) => `Basic ${Buffer.from(s, 'utf8').toString('base64')}`;
const TOKEN = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('auth/header parseAuthorization', () => {
  it('is none without a header or with a blank one', () => {
    expect(parseAuthorization(undefined)).to.deep.equal({ kind: 'none' });
    expect(parseAuthorization('')).to.deep.equal({ kind: 'none' });
    expect(parseAuthorization('   ')).to.deep.equal({ kind: 'none' });
  });

  describe('Basic', () => {
    it('splits user and password at the first colon; the password may contain colons', () => {
      expect(parseAuthorization(basic('admin:admindefault'))).to.deep.equal({
        kind: 'basic',
        username: 'admin',
        password: 'admindefault',
      });
      expect(parseAuthorization(basic('alice:a:b::c'))).to.deep.include({ username: 'alice', password: 'a:b::c' });
    });

    it('accepts an empty password, UTF-8, any scheme case and extra blanks', () => {
      expect(parseAuthorization(basic('bob:'))).to.deep.include({ kind: 'basic', username: 'bob', password: '' });
      expect(parseAuthorization(basic('jürgen:pässwörd'))).to.deep.include({ username: 'jürgen', password: 'pässwörd' });
      const b64 = Buffer.from('u:p').toString('base64');
      expect(parseAuthorization(`bAsIc   ${b64}  `)).to.deep.include({ kind: 'basic', username: 'u', password: 'p' });
    });

    it('is invalid without a colon, with an empty user, or with non-base64 content', () => {
      expect(parseAuthorization(basic('nocolon')).kind).to.equal('invalid');
      expect(parseAuthorization(basic(':pw')).kind).to.equal('invalid');
      expect(parseAuthorization('Basic !!!not-base64!!!').kind).to.equal('invalid');
      expect(parseAuthorization('Basic').kind).to.equal('invalid');
    });
  });

  describe('Token', () => {
    it('reads the JSON object after the word Token', () => {
      expect(parseAuthorization(`Token {"token":"${TOKEN}"}`)).to.deep.equal({ kind: 'token', token: TOKEN });
    });

    it('tolerates whitespace anywhere, no space after the scheme, and lower-cases the UUID', () => {
      expect(parseAuthorization(`Token   {  "token" :  " ${TOKEN.toUpperCase()} " }  `)).to.deep.equal({
        kind: 'token',
        token: TOKEN,
      });
      expect(parseAuthorization(`token{"token":"${TOKEN}"}`)).to.deep.equal({ kind: 'token', token: TOKEN });
    });

    it('is invalid for malformed JSON, non-objects, missing or non-UUID tokens', () => {
      for (const header of [
        'Token',
        'Token {token: x}',
        `Token ${TOKEN}`,
        `Token ["${TOKEN}"]`,
        'Token null',
        'Token {}',
        'Token {"token": 42}',
        'Token {"token": "not-a-uuid"}',
        `Token {"token":"${TOKEN}"} trailing`,
      ]) {
        expect(parseAuthorization(header).kind, header).to.equal('invalid');
      }
    });
  });

  it('is invalid for other schemes', () => {
    expect(parseAuthorization('Bearer abc').kind).to.equal('invalid');
    expect(parseAuthorization('Digest username="x"').kind).to.equal('invalid');
    expect(parseAuthorization('{"token":"x"}').kind).to.equal('invalid');
  });
});
