import { expect } from 'chai';
import type { Principal, Role } from '../../src/auth/roles';
import { decideLogin, decideResource, decideTopic, decideVhost, type ResourceRequest } from '../../src/brokerauth/decide';
import { CLIENT_QUEUE_PREFIX, isClientQueueName } from '../../src/brokerauth/client-queues';

const user = (...roles: Role[]): Principal => ({ name: 'u', roles });
const reader = user('DataReader');
const admin = user('Admin');
const configManager = user('ConfigManager', 'JobRunner');
const queue = `${CLIENT_QUEUE_PREFIX}0f6c1c1e-1b2a-4c53-9f0e-3f8f0d1a2b3c`;
const req = (over: Partial<ResourceRequest> = {}): ResourceRequest => ({ vhost: '/', resource: 'queue', name: queue, permission: 'read', ...over });

describe('brokerauth/decide', () => {
  describe('isClientQueueName', () => {
    it('accepts names with the client queue prefix and something after it, nothing else', () => {
      expect(isClientQueueName(queue)).to.equal(true);
      expect(isClientQueueName(CLIENT_QUEUE_PREFIX)).to.equal(false);
      expect(isClientQueueName('orders')).to.equal(false);
      expect(isClientQueueName(`x${CLIENT_QUEUE_PREFIX}q`)).to.equal(false);
      expect(isClientQueueName('amq.gen-abc')).to.equal(false);
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
      expect(decideResource(reader, req(), isClientQueueName)).to.deep.equal({ allow: true });
      expect(decideResource(admin, req(), isClientQueueName)).to.deep.equal({ allow: true });
    });
    it('grants configure on a client queue, for the equivalent redeclare existing clients make', () => {
      expect(decideResource(reader, req({ permission: 'configure' }), isClientQueueName)).to.deep.equal({ allow: true });
    });
    it('denies write on a client queue', () => {
      expect(decideResource(reader, req({ permission: 'write' }), isClientQueueName)).to.deep.equal({ allow: false, reason: 'clients may not publish' });
    });
    it('denies every permission on queues that are not client queues, even to Admin', () => {
      for (const permission of ['read', 'configure', 'write'] as const) {
        expect(decideResource(admin, req({ name: 'orders', permission }), isClientQueueName).allow).to.equal(false);
      }
    });
    it('denies every permission on exchanges, the default exchange (amq.default) included', () => {
      for (const name of ['amq.default', 'amq.topic', queue]) {
        for (const permission of ['read', 'configure', 'write'] as const) {
          expect(decideResource(admin, req({ resource: 'exchange', name, permission }), isClientQueueName).allow).to.equal(false);
        }
      }
    });
    it('denies users without the role, unknown users and other virtual hosts', () => {
      expect(decideResource(configManager, req(), isClientQueueName).allow).to.equal(false);
      expect(decideResource(undefined, req(), isClientQueueName).allow).to.equal(false);
      expect(decideResource(reader, req({ vhost: 'other' }), isClientQueueName).allow).to.equal(false);
    });
    it('uses the predicate it is given for client queues', () => {
      expect(decideResource(reader, req({ name: 'special' }), (n) => n === 'special')).to.deep.equal({ allow: true });
    });
  });

  describe('decideTopic', () => {
    it('denies topic access to everyone', () => {
      expect(decideTopic(admin, '/')).to.deep.equal({ allow: false, reason: 'topic access is not granted to clients' });
      expect(decideTopic(undefined, '/').allow).to.equal(false);
    });
  });
});
