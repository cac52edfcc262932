import { expect } from 'chai';
import type { Context } from 'koa';
import { agentAuthorization, agentGuard, agentReaderOf, newAgentSecret, parseAgentAuthorization, secretMatches, sha256Hex } from '../../src/agents/guard';
import { ApiError } from '../../src/core/http/errors';

function ctxWith(header: string | undefined, params: Record<string, string>): Context {
  const headers: Record<string, string> = {};
  return {
    params,
    state: {},
    get: (name: string) => (name.toLowerCase() === 'authorization' ? (header ?? '') : ''),
    set: (name: string, value: string) => {
      headers[name] = value;
    },
  } as unknown as Context;
}

async function status(header: string | undefined, params: Record<string, string>, stored: Record<string, string>): Promise<number | string> {
  const guard = agentGuard(async (reader) => stored[reader]);
  const ctx = ctxWith(header, params);
  try {
    await guard(ctx, async () => undefined);
    return agentReaderOf(ctx);
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

describe('agent guard', () => {
  const secret = newAgentSecret();
  const stored = { 'reader:1': sha256Hex(secret), r2: sha256Hex('other') };

  it('issues 43-character base64url secrets', () => {
    expect(secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(newAgentSecret()).not.to.equal(secret);
  });

  it('parses Agent base64(reader:secret); the reader may contain ":"', () => {
    expect(parseAgentAuthorization(agentAuthorization('reader:1', secret))).to.deep.equal({ reader: 'reader:1', secret });
    expect(parseAgentAuthorization(`agent ${Buffer.from('r:s').toString('base64')}`)).to.deep.equal({ reader: 'r', secret: 's' });
    for (const bad of [undefined, '', 'Basic YTpi', 'Agent', 'Agent !!!', `Agent ${Buffer.from('nocolon').toString('base64')}`, `Agent ${Buffer.from(':s').toString('base64')}`, `Agent ${Buffer.from('r:').toString('base64')}`]) {
      expect(parseAgentAuthorization(bad), String(bad)).to.equal(undefined);
    }
  });

  it('compares digests: right secret only, none issued never matches', () => {
    expect(secretMatches(secret, sha256Hex(secret))).to.equal(true);
    expect(secretMatches('x', sha256Hex(secret))).to.equal(false);
    expect(secretMatches('no secret issued', undefined)).to.equal(false);
    expect(secretMatches(secret, 'garbage')).to.equal(false);
  });

  it('lets the right reader through and records it', async () => {
    expect(await status(agentAuthorization('reader:1', secret), { readerName: 'reader:1' }, stored)).to.equal('reader:1');
  });
  it('401 without credentials, with user credentials, a wrong secret or an unknown reader', async () => {
    expect(await status(undefined, { readerName: 'reader:1' }, stored)).to.equal(401);
    expect(await status('Basic YWRtaW46YWRtaW5kZWZhdWx0', { readerName: 'reader:1' }, stored)).to.equal(401);
    expect(await status(agentAuthorization('reader:1', 'wrong'), { readerName: 'reader:1' }, stored)).to.equal(401);
    expect(await status(agentAuthorization('ghost', secret), { readerName: 'ghost' }, stored)).to.equal(401);
  });
  it('403 when the path names another reader', async () => {
    expect(await status(agentAuthorization('r2', 'other'), { readerName: 'reader:1' }, stored)).to.equal(403);
  });
});
