// The well-known default admin password: warned about at every start while
// it is in use (not only the first), and shown in the warnings of /healthz;
// gone from both once the password is changed or ADMIN_PASSWORD was set.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, basic, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD_WARNING } from '../../src/users/default-password';
import { logFiles } from '../../src/support/log-file';

async function healthWarnings(app: TestApp): Promise<unknown> {
  const res = await fetch(`${new URL(app.baseUrl).origin}/healthz`);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body['status']).to.equal('ok');
  return body['warnings'];
}

/** How many times the retained log file of `dataDir` holds the warning (written synchronously, before the app listens). */
function warningsLogged(dataDir: string): number {
  return logFiles(dataDir)
    .map((f) => readFileSync(f, 'utf8'))
    .join('')
    .split('\n')
    .filter((l) => l.includes(DEFAULT_PASSWORD_WARNING) && l.includes('"level":"warn"')).length;
}

describe('the default admin password warning', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let app: TestApp | undefined;
  const env = (extra: Record<string, string> = {}): Record<string, string> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-default-pw-'));
    dirs.push(dataDir);
    return { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${randomUUID()}:`, ...extra };
  };

  afterEach(async () => {
    await app?.stop();
    app = undefined;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is logged at every start and shown by /healthz while the default password is in use, and not after it changed', async () => {
    const vars = env();
    app = await startTestApp(vars);
    expect(await healthWarnings(app)).to.deep.equal([DEFAULT_PASSWORD_WARNING]);
    expect(warningsLogged(vars['DATA_DIR']!)).to.equal(1);

    await app.stop({ keepRedis: true });
    app = await startTestApp(vars);
    expect(warningsLogged(vars['DATA_DIR']!)).to.equal(2);
    expect(await healthWarnings(app)).to.deep.equal([DEFAULT_PASSWORD_WARNING]);

    const changed = await app.request('PUT', '/configuration/v1/users/createOrReplace', {
      body: { name: 'admin', password: 'a-better-one', roles: ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'] },
    });
    expect(changed.status).to.equal(200);
    expect(await healthWarnings(app)).to.equal(undefined);
    await app.stop({ keepRedis: true });
    app = await startTestApp(vars);
    expect((await app.request('GET', '/configuration/v1/users/currentUser', { auth: basic('admin', 'a-better-one') })).status).to.equal(200);
    expect(await healthWarnings(app)).to.equal(undefined);
    expect(warningsLogged(vars['DATA_DIR']!)).to.equal(2);
  });

  it('is neither logged nor shown when ADMIN_PASSWORD set the first password', async () => {
    const vars = env({ ADMIN_PASSWORD: 'set-at-first-start' });
    app = await startTestApp(vars);
    expect(await healthWarnings(app)).to.equal(undefined);
    expect(warningsLogged(vars['DATA_DIR']!)).to.equal(0);
  });
});
