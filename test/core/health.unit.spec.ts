import { expect } from 'chai';
import { checkHealth, sharedWhileRunning, TimeoutError, withTimeout } from '../../src/core/health';
import { expectRejection } from '../support/helpers';

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

describe('sharedWhileRunning', () => {
  interface Controlled {
    readonly runs: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }>;
    readonly shared: () => Promise<number>;
  }
  /** Work whose runs are counted and settle when the test says so. */
  const controlled = (): Controlled => {
    const runs: Controlled['runs'] = [];
    return { runs, shared: sharedWhileRunning(() => new Promise<number>((resolve, reject) => runs.push({ resolve, reject }))) };
  };
  /** Asks once more: that is run `n` (started now, or the one in flight), which answers `value`. */
  const askAgain = async (c: Controlled, n: number, value: number): Promise<void> => {
    const asked = c.shared();
    expect(c.runs).to.have.length(n);
    c.runs[n - 1]!.resolve(value);
    expect(await asked).to.equal(value);
  };

  it('gives every caller that asks while a run is in flight that run, and starts another once it settled', async () => {
    const c = controlled();
    const first = c.shared();
    const second = c.shared();
    expect(c.runs).to.have.length(1);
    c.runs[0]!.resolve(1);
    expect(await Promise.all([first, second])).to.deep.equal([1, 1]);
    await askAgain(c, 2, 2);
  });

  it('lets a caller whose wait timed out join the run it left when it asks again, instead of starting one beside it', async () => {
    const c = controlled();
    await expectRejection(withTimeout(c.shared(), 1, 'read model states'), TimeoutError);
    await askAgain(c, 1, 3);
  });

  it('shares a failure with the callers in flight and does not remember it', async () => {
    const c = controlled();
    const callers = [c.shared(), c.shared()];
    c.runs[0]!.reject(new Error('event store away'));
    for (const caller of callers) expect((await expectRejection(caller, Error)).message).to.equal('event store away');
    await askAgain(c, 2, 4);
  });
});
