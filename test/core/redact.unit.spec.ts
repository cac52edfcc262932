// Secrets never reach a log line: fields named like secrets are masked at any
// depth by the logger itself, and the token in validateToken paths is masked.
import { expect } from 'chai';
import { createLogger, setLogSink } from '../../src/core/logger';
import { redactPath, redactSecrets } from '../../src/core/redact';

describe('core/redact', () => {
  it('masks the token of validateToken paths, and nothing else', () => {
    expect(redactPath('/itemsense/authentication/v1/validateToken/0b6f8a9e-3c1d-4e2f-9a7b-123456789abc')).to.equal(
      '/itemsense/authentication/v1/validateToken/***',
    );
    expect(redactPath('/authentication/v1/VALIDATETOKEN/x/y')).to.equal('/authentication/v1/VALIDATETOKEN/***/y');
    expect(redactPath('/authentication/v1/validateToken')).to.equal('/authentication/v1/validateToken');
    expect(redactPath('/control/v1/jobs/show/0b6f8a9e-3c1d-4e2f-9a7b-123456789abc')).to.equal('/control/v1/jobs/show/0b6f8a9e-3c1d-4e2f-9a7b-123456789abc');
  });

  it('masks secret-named fields at any depth, in objects and arrays, and keeps the rest', () => {
    const masked = redactSecrets({
      user: 'alice',
      headers: { Authorization: 'Basic YWxpY2U6czNjcmV0', accept: 'application/json' },
      body: [{ name: 'bob', password: 's3cret' }, { token: 'abc' }],
      repository: { bearerToken: 'b-1', passwordSet: true, bearerTokenSet: true },
      snmp: { authConfig: { type: 'V2_COMMUNITY', communityName: 'c-1', communityNameSet: true } },
      tokenId: 'kept',
      secret: null,
    });
    expect(masked).to.deep.equal({
      user: 'alice',
      headers: { Authorization: '***', accept: 'application/json' },
      body: [{ name: 'bob', password: '***' }, { token: '***' }],
      repository: { bearerToken: '***', passwordSet: true, bearerTokenSet: true },
      snmp: { authConfig: { type: 'V2_COMMUNITY', communityName: '***', communityNameSet: true } },
      tokenId: 'kept',
      secret: null,
    });
  });

  it('the logger masks them in every line it writes', () => {
    const lines: string[] = [];
    setLogSink({ write: (line) => void lines.push(line) });
    try {
      createLogger('t').info('login', { password: 'hunter2', request: { headers: { authorization: 'Token {"token":"t-1"}' } }, err: new Error('boom') });
    } finally {
      setLogSink(undefined);
    }
    expect(lines).to.have.length(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line['password']).to.equal('***');
    expect(line['request']).to.deep.equal({ headers: { authorization: '***' } });
    expect((line['err'] as { message: string }).message).to.equal('boom');
    expect(lines[0]).to.not.include('hunter2').and.not.include('t-1');
  });
});
