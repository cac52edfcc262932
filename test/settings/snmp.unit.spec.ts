import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { isSealed, secretBox, SecretUnusable } from '../../src/core/secret-box';
import { communityOf, SnmpSettings, SnmpSettingsBody, snmpSettingsFromBody, snmpSettingsResponse, withoutCommunity } from '../../src/settings/snmp';
import { decoded, paths, refused, rightOf } from '../readerdefinitions/support';

const box = secretBox(randomBytes(32));
const auth = { type: 'V2_COMMUNITY', communityName: 'public' };
const settings = (trapTargetConfig?: unknown) => snmpSettingsFromBody(decoded(SnmpSettingsBody, { authConfig: auth, trapTargetConfig }), box);

describe('settings/snmp codec', () => {
  it('given only authConfig, when decoded, then the settings have no trap target', () => {
    expect(settings()).to.deep.include({ trapTargetConfig: null });
    expect(settings(null).trapTargetConfig).to.equal(null);
  });

  it('given no authConfig, when decoded, then 400 at body.authConfig', () => {
    expect(paths(refused(SnmpSettingsBody, {}))).to.deep.equal(['body.authConfig']);
  });

  it('given an auth type other than V2_COMMUNITY or an empty community, when decoded, then 400 naming the field', () => {
    expect(paths(refused(SnmpSettingsBody, { authConfig: { type: 'V3_USER', communityName: 'p' } }))).to.deep.equal(['body.authConfig.type']);
    expect(paths(refused(SnmpSettingsBody, { authConfig: { type: 'V2_COMMUNITY', communityName: '' } }))).to.deep.equal(['body.authConfig.communityName']);
    expect(paths(refused(SnmpSettingsBody, { authConfig: { type: 'V2_COMMUNITY' } }))).to.deep.equal(['body.authConfig.communityName']);
  });

  it('given a trap target with only a host, when decoded, then port 162, retries 2, timeout PT5S and TRAP are in use', () => {
    expect(settings({ host: 'nms.local' }).trapTargetConfig).to.deep.equal({ host: 'nms.local', port: 162, timeout: 'PT5S', retries: 2, messageType: 'TRAP' });
    expect(settings({ host: 'nms.local', port: null, timeout: null, retries: null, messageType: null }).trapTargetConfig?.port).to.equal(162);
  });

  it('given a full trap target with INFORM, when decoded, then it is kept and the timeout canonicalised', () => {
    expect(settings({ host: 'h', port: 1162, timeout: 'PT60S', retries: 0, messageType: 'INFORM' }).trapTargetConfig).to.deep.equal({
      host: 'h', port: 1162, timeout: 'PT1M', retries: 0, messageType: 'INFORM',
    });
  });

  it('given a blank host, when decoded, then 400 at body.trapTargetConfig.host', () => {
    expect(paths(refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: ' ' } }))).to.deep.equal(['body.trapTargetConfig.host']);
  });

  it('given a port outside 1-65535 or fractional, when decoded, then 400 at the port', () => {
    for (const port of [0, 65536, 1.5, '162']) {
      expect(paths(refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: 'h', port } })), String(port)).to.deep.equal(['body.trapTargetConfig.port']);
    }
    expect(settings({ host: 'h', port: 65535 }).trapTargetConfig?.port).to.equal(65535);
  });

  it('given a timeout that is not a positive ISO 8601 duration, when decoded, then 400 with the reason', () => {
    for (const timeout of ['5s', 'PT0S', 'P1M', '-PT1S', 5]) {
      const error = refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: 'h', timeout } });
      expect(paths(error), String(timeout)).to.deep.equal(['body.trapTargetConfig.timeout']);
    }
    expect(refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: 'h', timeout: 'PT0S' } }).errors[0]?.reason).to.equal('must be longer than zero');
  });

  it('given negative or fractional retries, when decoded, then 400 at retries', () => {
    for (const retries of [-1, 0.5]) {
      expect(paths(refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: 'h', retries } }))).to.deep.equal(['body.trapTargetConfig.retries']);
    }
  });

  it('given a messageType other than TRAP or INFORM, when decoded, then 400', () => {
    expect(paths(refused(SnmpSettingsBody, { authConfig: auth, trapTargetConfig: { host: 'h', messageType: 'GET' } }))).to.deep.equal(['body.trapTargetConfig.messageType']);
  });
});

describe('settings/snmp stored form and response', () => {
  it('round-trips the settings in use through the stored codec', () => {
    const s = settings({ host: 'h' });
    expect(rightOf(SnmpSettings.decode(JSON.parse(JSON.stringify(s))))).to.deep.equal(s);
  });

  it('stores the community sealed (a fresh IV each time), and only communityOf opens it', () => {
    const s = settings({ host: 'h' });
    expect(isSealed(s.authConfig.communityName!)).to.equal(true);
    expect(JSON.stringify(s)).not.to.contain('public');
    expect(settings({ host: 'h' }).authConfig.communityName).not.to.equal(s.authConfig.communityName);
    expect(communityOf(s, box)).to.equal('public');
    expect(() => communityOf(s, secretBox(randomBytes(32)))).to.throw(SecretUnusable);
  });

  it('a community stored in clear by a version before sealing is still used as it is', () => {
    const legacy = rightOf(SnmpSettings.decode({ authConfig: auth, trapTargetConfig: null }));
    expect(communityOf(legacy, box)).to.equal('public');
    expect(snmpSettingsResponse(legacy).authConfig).to.deep.equal({ type: 'V2_COMMUNITY', communityNameSet: true });
  });

  it('answers whether a community is set, never the community, and the trap target as a copy', () => {
    const s = settings({ host: 'h' });
    const response = snmpSettingsResponse(s);
    expect(response).to.deep.equal({ authConfig: { type: 'V2_COMMUNITY', communityNameSet: true }, trapTargetConfig: s.trapTargetConfig });
    if (response.trapTargetConfig) response.trapTargetConfig.port = 1;
    expect(s.trapTargetConfig?.port).to.equal(162);
  });

  it('exported without the community: restored, it reads as not set and nothing can be sent', () => {
    const data = { name: 'SNMP', resource: settings({ host: 'h' }) };
    const exported = withoutCommunity(data);
    expect(JSON.stringify(exported)).not.to.contain('sealed:');
    const restored = rightOf(SnmpSettings.decode((exported as typeof data).resource));
    expect(restored.trapTargetConfig).to.deep.equal(data.resource.trapTargetConfig);
    expect(snmpSettingsResponse(restored).authConfig.communityNameSet).to.equal(false);
    expect(() => communityOf(restored, box)).to.throw(/PUT the settings again/);
    expect(withoutCommunity({ name: 'SNMP' })).to.deep.equal({ name: 'SNMP' });
  });
});
