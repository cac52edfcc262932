import { expect } from 'chai';
import { Shutdown, answerToSignal } from '../../src/core/shutdown';
import { createLogger } from '../../src/core/logger';
import { sleep } from '../support/wait';

const logger = createLogger('test');

describe('Shutdown', () => {
  it('runs steps once, last registered first', async () => {
    const order: string[] = [];
    const s = new Shutdown({ logger, timeoutMs: 1000, exit: () => undefined });
    for (const name of ['eventstore', 'client', 'redis', 'amqp', 'http']) {
      s.add(name, async () => {
        await sleep(1);
        order.push(name);
      });
    }
    const [a, b] = await Promise.all([s.run('test'), s.run('again')]);
    expect([a, b]).to.deep.equal([0, 0]);
    expect(order).to.deep.equal(['http', 'amqp', 'redis', 'client', 'eventstore']);
  });

  it('keeps going after a failing step and reports exit code 1', async () => {
    const order: string[] = [];
    const s = new Shutdown({ logger, timeoutMs: 1000, exit: () => undefined });
    s.add('last', () => Promise.resolve(void order.push('last')));
    s.add('broken', () => Promise.reject(new Error('nope')));
    expect(await s.run('test')).to.equal(1);
    expect(order).to.deep.equal(['last']);
  });

  it('given a shutdown answering a failed start, when every step succeeds, then it logs and exits with code 1', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const capture = { ...logger, info: (msg: string, f?: Record<string, unknown>) => void logged.push({ msg, ...f }) };
    const exits: number[] = [];
    const s = new Shutdown({ logger: capture, timeoutMs: 1000, exit: (code) => void exits.push(code) });
    s.add('fine', () => Promise.resolve());
    await s.runAndExit('start-up failed', 1);
    expect(exits).to.deep.equal([1]);
    expect(logged.find((l) => l['msg'] === 'shutdown finished')).to.include({ reason: 'start-up failed', code: 1 });
  });

  it('gives up after the timeout with exit code 1', async () => {
    const s = new Shutdown({ logger, timeoutMs: 100, exit: () => undefined });
    s.add('hangs', () => new Promise<void>(() => undefined));
    const started = Date.now();
    expect(await s.run('test')).to.equal(1);
    expect(Date.now() - started).to.be.within(90, 1000);
  });

  it('passes each step the time left in the budget', async () => {
    const seen: number[] = [];
    const s = new Shutdown({ logger, timeoutMs: 1000, exit: () => undefined });
    s.add('second', (remaining) => Promise.resolve(void seen.push(remaining)));
    s.add('first', async (remaining) => {
      seen.push(remaining);
      await sleep(100);
    });
    await s.run('test');
    expect(seen[0]).to.be.within(900, 1000);
    expect(seen[1]).to.be.within(700, 910);
  });

  it('closes a resource registered after shutdown began at once', async () => {
    const s = new Shutdown({ logger, timeoutMs: 1000, exit: () => undefined });
    await s.run('test');
    let closed = false;
    s.add('late', () => Promise.resolve(void (closed = true)));
    await sleep(1);
    expect(closed).to.equal(true);
  });

  it('exits with the worse of the requested and the shutdown code', async () => {
    const codes: number[] = [];
    const ok = new Shutdown({ logger, timeoutMs: 1000, exit: (c) => codes.push(c) });
    await ok.runAndExit('start-up failed', 1);
    const broken = new Shutdown({ logger, timeoutMs: 1000, exit: (c) => codes.push(c) });
    broken.add('broken', () => Promise.reject(new Error('nope')));
    await broken.runAndExit('SIGTERM');
    expect(codes).to.deep.equal([1, 1]);
  });

  describe('signals', () => {
    it('the first stop signal shuts down, a second is ignored, a third or SIGQUIT exits at once', () => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        expect([0, 1, 2, 3].map((before) => answerToSignal(signal, before)), signal).to.deep.equal(['shut down', 'ignore', 'exit now', 'exit now']);
      }
      expect([0, 1, 2].map((before) => answerToSignal('SIGQUIT', before))).to.deep.equal(['exit now', 'exit now', 'exit now']);
    });

    it('given a shutdown under way, when the same signal comes again, then the steps finish and the exit code is 0', async () => {
      const exits: number[] = [];
      const closed: string[] = [];
      const s = new Shutdown({ logger, timeoutMs: 5000, exit: (c) => void exits.push(c) });
      s.add('reader links', async () => {
        await sleep(50);
        closed.push('reader links');
      });
      s.answer('SIGINT', answerToSignal('SIGINT', 0));
      s.answer('SIGINT', answerToSignal('SIGINT', 1));
      expect(exits, 'no exit while the steps run').to.deep.equal([]);
      await s.run('SIGINT');
      await sleep(1);
      expect(closed).to.deep.equal(['reader links']);
      expect(exits).to.deep.equal([0]);
    });

    it('given a shutdown under way, when a third stop signal comes, then it exits 1 at once', () => {
      const exits: number[] = [];
      const s = new Shutdown({ logger, timeoutMs: 100, exit: (c) => void exits.push(c) });
      s.add('hangs', () => new Promise<void>(() => undefined));
      for (const before of [0, 1, 2]) s.answer('SIGTERM', answerToSignal('SIGTERM', before));
      expect(exits).to.deep.equal([1]);
    });
  });
});
