import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import type { Role } from '../../src/auth/roles';
import { userDecider, userErrorToApi, type UserCommand } from '../../src/users/decide';
import { userEvents, userStream, type UserEvent } from '../../src/users/events';

const now = new Date('2024-01-02T03:04:05Z');
const given = (...history: UserEvent[]) => ({
  when: (command: UserCommand) => decideOnHistory(userDecider, history, command, now),
});
const created = (name: string, roles: Role[], passwordHash = 'h1'): UserEvent => ({
  type: 'UserCreated',
  data: { name, roles, passwordHash },
});
const deleted = (name: string): UserEvent => ({ type: 'UserDeleted', data: { name } });

function events(result: ReturnType<ReturnType<typeof given>['when']>) {
  if (!isRight(result)) return expect.fail(`expected events, got ${JSON.stringify(result.left)}`);
  return result.right.events;
}
function error(result: ReturnType<ReturnType<typeof given>['when']>) {
  if (!isLeft(result)) return expect.fail(`expected an error, got ${JSON.stringify(result.right.events)}`);
  return result.left;
}

describe('users/decide', () => {
  it('streams are named user-<name>', () => {
    expect(userStream('alice')).to.equal('user-alice');
  });

  describe('CreateUser', () => {
    it('given no user, creates it with normalised roles and the hash it was given', () => {
      const result = given().when({ type: 'CreateUser', name: 'alice', roles: ['JobRunner', 'DataReader', 'JobRunner'], passwordHash: 'h' });
      expect(events(result)).to.deep.equal([
        { type: 'UserCreated', data: { name: 'alice', roles: ['DataReader', 'JobRunner'], passwordHash: 'h' } },
      ]);
      expect(isRight(result) && result.right.state).to.deep.include({ status: 'active', passwordHash: 'h' });
    });

    it('given an existing user, refuses with 409', () => {
      const err = error(given(created('alice', [])).when({ type: 'CreateUser', name: 'alice', roles: [], passwordHash: 'h' }));
      expect(err).to.deep.equal({ code: 'UserExists', name: 'alice' });
      expect(userErrorToApi(err).status).to.equal(409);
    });

    it('given a deleted user, creates it again', () => {
      const result = given(created('alice', []), deleted('alice')).when({ type: 'CreateUser', name: 'alice', roles: ['Admin'], passwordHash: 'h2' });
      expect(events(result)).to.have.length(1);
    });
  });

  describe('CreateOrReplaceUser', () => {
    const replace = (over: Partial<Extract<UserCommand, { type: 'CreateOrReplaceUser' }>> = {}): UserCommand => ({
      type: 'CreateOrReplaceUser',
      name: 'alice',
      roles: ['ConfigManager'],
      otherAdmins: 1,
      ...over,
    });

    it('given no user and a password, creates it', () => {
      expect(events(given().when(replace({ passwordHash: 'h' })))).to.deep.equal([
        { type: 'UserCreated', data: { name: 'alice', roles: ['ConfigManager'], passwordHash: 'h' } },
      ]);
    });

    it('given no user (or a deleted one) and no password, refuses with 400 on body.password', () => {
      for (const history of [[], [created('alice', []), deleted('alice')]]) {
        const err = error(given(...history).when(replace()));
        expect(err).to.deep.equal({ code: 'PasswordRequired', name: 'alice' });
        const api = userErrorToApi(err);
        expect(api.status).to.equal(400);
        expect(api.errors).to.deep.equal([{ path: 'body.password', reason: 'is required when creating a user' }]);
      }
    });

    it('given a user and no password, replaces the roles keeping the stored hash', () => {
      expect(events(given(created('alice', ['DataReader'], 'old')).when(replace()))).to.deep.equal([
        { type: 'UserReplaced', data: { name: 'alice', roles: ['ConfigManager'], passwordHash: 'old' } },
      ]);
    });

    it('given a user and a new password, replaces the hash', () => {
      expect(events(given(created('alice', ['ConfigManager'], 'old')).when(replace({ passwordHash: 'new' })))).to.deep.equal([
        { type: 'UserReplaced', data: { name: 'alice', roles: ['ConfigManager'], passwordHash: 'new' } },
      ]);
    });

    it('given the same roles (in any order) and no password, writes nothing', () => {
      const history = [created('alice', ['ConfigManager', 'JobRunner'])];
      expect(events(given(...history).when(replace({ roles: ['JobRunner', 'ConfigManager', 'JobRunner'] })))).to.deep.equal([]);
    });

    it('refuses to take Admin away from the last Admin (409), allows it when another Admin exists', () => {
      const history = [created('alice', ['Admin'])];
      const err = error(given(...history).when(replace({ roles: ['DataReader'], otherAdmins: 0 })));
      expect(err).to.deep.equal({ code: 'LastAdmin', name: 'alice' });
      expect(userErrorToApi(err).status).to.equal(409);
      expect(events(given(...history).when(replace({ roles: ['DataReader'], otherAdmins: 1 })))).to.have.length(1);
      // Keeping Admin while changing the password is fine for the last Admin.
      expect(events(given(...history).when(replace({ roles: ['Admin'], passwordHash: 'n', otherAdmins: 0 })))).to.have.length(1);
    });
  });

  describe('DeleteUser', () => {
    it('given a user, deletes it', () => {
      const result = given(created('bob', ['DataReader'])).when({ type: 'DeleteUser', name: 'bob', otherAdmins: 0 });
      expect(events(result)).to.deep.equal([{ type: 'UserDeleted', data: { name: 'bob' } }]);
      expect(isRight(result) && result.right.state).to.deep.equal({ status: 'deleted', name: 'bob' });
    });

    it('given no user or a deleted one, refuses with 404', () => {
      for (const history of [[], [created('bob', []), deleted('bob')]]) {
        const err = error(given(...history).when({ type: 'DeleteUser', name: 'bob', otherAdmins: 3 }));
        expect(err).to.deep.equal({ code: 'UserNotFound', name: 'bob' });
        expect(userErrorToApi(err).status).to.equal(404);
      }
    });

    it('refuses to delete the last Admin (409), allows it when another Admin exists', () => {
      const history = [created('admin', ['Admin'])];
      expect(error(given(...history).when({ type: 'DeleteUser', name: 'admin', otherAdmins: 0 }))).to.deep.equal({
        code: 'LastAdmin',
        name: 'admin',
      });
      expect(events(given(...history).when({ type: 'DeleteUser', name: 'admin', otherAdmins: 1 }))).to.have.length(1);
    });
  });

  describe('event codecs', () => {
    it('decode what they encode and refuse unknown roles', () => {
      const data = { name: 'a', roles: ['Admin' as const], passwordHash: '$argon2id$...' };
      expect(userEvents.UserCreated.decode(userEvents.UserCreated.encode(data))).to.deep.equal({ _tag: 'Right', right: data });
      expect(isLeft(userEvents.UserReplaced.decode({ ...data, roles: ['Root'] }))).to.equal(true);
      expect(isLeft(userEvents.UserDeleted.decode({}))).to.equal(true);
    });
  });
});
