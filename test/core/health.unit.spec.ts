import { expect } from 'chai';
import { checkHealth } from '../../src/core/health';

describe('checkHealth', () => {
  it('is ok when every check passes', async () => {
    const r = await checkHealth({ a: () => Promise.resolve(), b: () => Promise.resolve() }, 100);
    expect(r.status).to.equal('ok');
    expect(r.a.status).to.equal('ok');
    expect(r.b.latencyMs).to.be.a('number');
  });

  it('reports a failing and a hanging check as down, without waiting for the hang', async () => {
    const started = Date.now();
    const r = await checkHealth(
      {
        ok: () => Promise.resolve(),
        broken: () => Promise.reject(new Error('refused')),
        hung: () => new Promise<void>(() => undefined),
      },
      100,
    );
    expect(Date.now() - started).to.be.lessThan(1000);
    expect(r.status).to.equal('down');
    expect(r.ok.status).to.equal('ok');
    expect(r.broken).to.include({ status: 'down', error: 'refused' });
    expect(r.hung).to.include({ status: 'down', error: 'hung did not answer within 100 ms' });
  });
});
