// A check child killed by a signal: a crash while walking the store's trees is
// damage; a signal someone sent (Ctrl-C or a stop of the whole process group
// while the check ran) is not, so the operator is not sent to repair a sound store.
import { expect } from 'chai';
import { deathBySignal } from '../../../src/eventstore/storage/structure';

describe('store check child killed by a signal', () => {
  it('a crash (SIGSEGV, SIGBUS, SIGABRT) counts as damage; SIGINT, SIGTERM, SIGHUP, SIGKILL as an interruption', () => {
    const signals: NodeJS.Signals[] = ['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL'];
    expect(Object.fromEntries(signals.map((s) => [s, deathBySignal(s)]))).to.deep.equal({
      SIGSEGV: 'crashed', SIGBUS: 'crashed', SIGABRT: 'crashed',
      SIGINT: 'interrupted', SIGTERM: 'interrupted', SIGHUP: 'interrupted', SIGKILL: 'interrupted',
    });
  });
});
