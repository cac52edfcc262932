import { expect } from 'chai';
import { ReaderDefinitionBody } from '../../src/readerdefinitions/codec';
import { connectionResponse, toStoredConnection, type ReaderConnection } from '../../src/readerdefinitions/connection';
import { validateReaderDefinitionCreate, validateReaderDefinitionReplace } from '../../src/readerdefinitions/validate';
import { decoded, leftOf, paths, refused, rightOf } from './support';
import { selfSignedPem } from '../support/tls';

describe('readerdefinitions/connection', () => {
  it('given no connection, when validated, then it is stored as null (the agent API)', () => {
    const doc = rightOf(validateReaderDefinitionCreate(decoded(ReaderDefinitionBody, { name: 'r' }), ['DEFAULT']));
    expect(doc.connection).to.equal(null);
  });

  it('given LLRP without a port, when stored, then port 5084', () => {
    const body = decoded(ReaderDefinitionBody, { name: 'r', address: '10.0.0.5', connection: { protocol: 'LLRP' } });
    const doc = rightOf(validateReaderDefinitionCreate(body, ['DEFAULT']));
    expect(doc.connection).to.deep.equal({ protocol: 'LLRP', port: 5084 });
  });

  it('given LLRP with tls, when stored, then port 5085, the CA as given, the fingerprint lower-case without colons; answered as stored', () => {
    const ca = selfSignedPem();
    const pin = `${'AB:'.repeat(31)}CD`;
    const body = decoded(ReaderDefinitionBody, { name: 'r', address: '10.0.0.5', connection: { protocol: 'LLRP', tls: true, caCertificate: ca, certificateSha256: pin } });
    const doc = rightOf(validateReaderDefinitionCreate(body, ['DEFAULT']));
    const stored = { protocol: 'LLRP', port: 5085, tls: true, caCertificate: ca, certificateSha256: `${'ab'.repeat(31)}cd` };
    expect(doc.connection).to.deep.equal(stored);
    expect(connectionResponse(stored as ReaderConnection)).to.deep.equal(stored);
    expect(toStoredConnection({ protocol: 'LLRP', tls: true, port: 6000 }, null)).to.deep.equal({ protocol: 'LLRP', port: 6000, tls: true, caCertificate: null, certificateSha256: null });
  });

  it('given LLRP TLS settings that do not parse or come without tls, when decoded, then 400 naming the field', () => {
    const llrp = (c: Record<string, unknown>): unknown => ({ name: 'r', connection: { protocol: 'LLRP', ...c } });
    expect(paths(refused(ReaderDefinitionBody, llrp({ tls: true, caCertificate: 'not a certificate' })))).to.deep.equal(['body.connection.caCertificate']);
    expect(paths(refused(ReaderDefinitionBody, llrp({ tls: true, caCertificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' })))).to.deep.equal(['body.connection.caCertificate']);
    expect(paths(refused(ReaderDefinitionBody, llrp({ tls: true, certificateSha256: 'abc' })))).to.deep.equal(['body.connection.certificateSha256']);
    expect(paths(refused(ReaderDefinitionBody, llrp({ tls: 'yes' })))).to.deep.equal(['body.connection.tls']);
    expect(paths(refused(ReaderDefinitionBody, llrp({ certificateSha256: 'ab'.repeat(32) })))).to.deep.equal(['body.connection.certificateSha256']);
  });

  it('given IOT with defaults, when stored, then https, root, STREAM and no password', () => {
    expect(toStoredConnection({ protocol: 'IOT' }, null)).to.deep.equal({ protocol: 'IOT', scheme: 'https', port: null, username: 'root', password: null, delivery: 'STREAM' });
  });

  it('given LLRP or IOT without an address, when validated, then 400 at body.address', () => {
    for (const connection of [{ protocol: 'LLRP' }, { protocol: 'IOT', password: 'x' }]) {
      const body = decoded(ReaderDefinitionBody, { name: 'r', connection });
      expect(paths(leftOf(validateReaderDefinitionCreate(body, ['DEFAULT'])))).to.deep.equal(['body.address']);
    }
  });

  it('given an unknown protocol or a bad field, when decoded, then 400 naming that field', () => {
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', connection: { protocol: 'SNMP' } }))).to.deep.equal(['body.connection.protocol']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', connection: { protocol: 'LLRP', port: 70000 } }))).to.deep.equal(['body.connection.port']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', connection: { protocol: 'IOT', delivery: 'KAFKA' } }))).to.deep.equal(['body.connection.delivery']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', connection: 'LLRP' }))).to.deep.equal(['body.connection']);
  });

  it('given a stored IOT password, when returned, then only passwordSet is shown', () => {
    const c: ReaderConnection = { protocol: 'IOT', scheme: 'https', port: null, username: 'root', password: 'impinj', delivery: 'MQTT' };
    const shown = connectionResponse(c);
    expect(shown).to.deep.equal({ protocol: 'IOT', scheme: 'https', port: null, username: 'root', passwordSet: true, delivery: 'MQTT' });
    expect(JSON.stringify(shown)).not.to.contain('impinj');
  });

  it('given a replace without a password, when validated, then the stored password is kept; a new one replaces it', () => {
    const first = rightOf(validateReaderDefinitionCreate(decoded(ReaderDefinitionBody, { name: 'r', address: 'r700', connection: { protocol: 'IOT', password: 'secret1' } }), ['DEFAULT']));
    const kept = rightOf(validateReaderDefinitionReplace(first, decoded(ReaderDefinitionBody, { name: 'r', address: 'r700', connection: { protocol: 'IOT', delivery: 'WEBHOOK' } }), ['DEFAULT']));
    expect(kept.connection).to.include({ password: 'secret1', delivery: 'WEBHOOK' });
    const changed = rightOf(validateReaderDefinitionReplace(kept, decoded(ReaderDefinitionBody, { name: 'r', address: 'r700', connection: { protocol: 'IOT', password: 'secret2' } }), ['DEFAULT']));
    expect(changed.connection).to.include({ password: 'secret2' });
    const toLlrp = rightOf(validateReaderDefinitionReplace(kept, decoded(ReaderDefinitionBody, { name: 'r', address: 'r700', connection: { protocol: 'LLRP' } }), ['DEFAULT']));
    expect(toLlrp.connection).to.deep.equal({ protocol: 'LLRP', port: 5084 });
  });
});
