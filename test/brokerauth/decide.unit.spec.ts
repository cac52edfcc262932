import { expect } from 'chai';
import type { Principal, Role } from '../../src/auth/roles';
import { decideLogin, decideResource, decideTopic, decideVhost, type ResourceRequest } from '../../src/brokerauth/decide';
import { isClientQueueName } from '../../src/brokerauth/client-queues';
import { clientQueueId } from '../../src/queues/model';

const user = (...roles: Role[]): Principal => ({ name: 'u', roles });
const reader = user('DataReader');
const admin = user('Admin');
const configManager = user('ConfigManager', 'JobRunner');
const ID = '0f6c1c1e-1b2a-4c53-9f0e-3f8f0d1a2b3c';
const queue = `tagtrail.items.${ID}`;
const req = (over: Partial<ResourceRequest> = {}): ResourceRequest => ({ vhost: '/', resource: 'queue', name: queue, permission: 'read', ...over });
/** decideResource with the name-only client queue check (the service also asks the log). */
const resource = (user: Principal | undefined, over: Partial<ResourceRequest> = {}) => decideResource(user, req(over), isClientQueueName(req(over).name));

describe('brokerauth/decide', () => {
  describe('client queue names', () => {
    it('are tagtrail.<items|health|threshold>.<lower-case uuid>; the id is the uuid', () => {
      for (const kind of ['items', 'health', 'threshold']) expect(clientQueueId(`tagtrail.${kind}.${ID}`)).to.equal(ID);
      expect(isClientQueueName(queue)).to.equal(true);
    });
    it('refuse anything else', () => {
      for (const name of ['tagtrail.', 'tagtrail.items.', `tagtrail.other.${ID}`, `tagtrail.items.${ID}x`, `tagtrail.items.${ID.toUpperCase()}`, `xtagtrail.items.${ID}`, 'orders', 'amq.gen-abc', `tagtrail.items.${ID}.x`]) {
        expect(isClientQueueName(name), name).to.equal(false);
      }
    });
  });

  describe('decideLogin', () => {
    it('allows a DataReader or an Admin with the right password', () => {
      expect(decideLogin(reader, true)).to.deep.equal({ allow: true });
      expect(decideLogin(admin, true)).to.deep.equal({ allow: true });
    });
    it('denies a wrong password and an unknown user alike', () => {
      expect(decideLogin(reader, false)).to.deep.equal({ allow: false, reason: 'invalid credentials' });
      expect(decideLogin(undefined, false)).to.deep.equal({ allow: false, reason: 'invalid credentials' });
    });
    it('denies a user with the right password but neither DataReader nor Admin', () => {
      expect(decideLogin(configManager, true)).to.deep.equal({ allow: false, reason: 'user lacks the DataReader or Admin role' });
      expect(decideLogin(user(), true).allow).to.equal(false);
    });
  });

  describe('decideVhost', () => {
    it('allows / only', () => {
      expect(decideVhost(reader, '/')).to.deep.equal({ allow: true });
      expect(decideVhost(reader, 'other').allow).to.equal(false);
      expect(decideVhost(admin, '').allow).to.equal(false);
    });
    it('denies a user that no longer exists or lost its role since login', () => {
      expect(decideVhost(undefined, '/')).to.deep.equal({ allow: false, reason: 'unknown user' });
      expect(decideVhost(configManager, '/').allow).to.equal(false);
    });
  });

  describe('decideResource', () => {
    it('lets a DataReader or Admin read (consume) a client queue', () => {
      expect(resource(reader)).to.deep.equal({ allow: true });
      expect(resource(admin)).to.deep.equal({ allow: true });
    });
    it('grants configure on a client queue, for the equivalent redeclare existing clients make', () => {
      expect(resource(reader, { permission: 'configure' })).to.deep.equal({ allow: true });
    });
    it('denies write on a client queue', () => {
      expect(resource(reader, { permission: 'write' })).to.deep.equal({ allow: false, reason: 'clients may not publish' });
    });
    it('denies every permission on queues that are not client queues, even to Admin', () => {
      for (const permission of ['read', 'configure', 'write'] as const) {
        expect(resource(admin, { name: 'orders', permission }).allow).to.equal(false);
      }
    });
    it('denies every permission on exchanges, the default exchange (amq.default) included', () => {
      for (const name of ['amq.default', 'amq.topic', queue]) {
        for (const permission of ['read', 'configure', 'write'] as const) {
          expect(resource(admin, { resource: 'exchange', name, permission }).allow).to.equal(false);
        }
      }
    });
    it('denies users without the role, unknown users and other virtual hosts', () => {
      expect(resource(configManager).allow).to.equal(false);
      expect(resource(undefined).allow).to.equal(false);
      expect(resource(reader, { vhost: 'other' }).allow).to.equal(false);
    });
    it('decides on the client-queue flag it is given (the service asks the log)', () => {
      expect(decideResource(reader, req(), true)).to.deep.equal({ allow: true });
      expect(decideResource(reader, req(), false).allow).to.equal(false);
    });
  });

  describe('decideTopic', () => {
    it('denies topic access to everyone', () => {
      expect(decideTopic(admin, '/')).to.deep.equal({ allow: false, reason: 'topic access is not granted to clients' });
      expect(decideTopic(undefined, '/').allow).to.equal(false);
    });
  });
});
