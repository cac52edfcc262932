// What both broker authentication suites start from: a DataReader `reader`
// (password `reader-passphrase`), a ConfigManager/JobRunner `config` (`config-passphrase`)
// without a broker role, and an item queue the reader configured.
import { expect } from 'chai';
import { basic, type TestApp } from '../support/app';

export const USERS = '/configuration/v1/users';

/** Creates the two users and configures the reader's queue; answers the queue name. */
export async function givenReaderWithQueue(app: TestApp): Promise<string> {
  for (const [name, roles] of [['reader', ['DataReader']], ['config', ['ConfigManager', 'JobRunner']]] as const) {
    const res = await app.request('POST', `${USERS}/create`, { body: { name, password: `${name}-passphrase`, roles } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  const configured = await app.request('PUT', '/data/v1/items/queues', { body: {}, auth: basic('reader', 'reader-passphrase') });
  expect(configured.status, JSON.stringify(configured.body)).to.equal(200);
  return configured.body.queue as string;
}
