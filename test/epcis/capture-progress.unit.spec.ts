// What a capture pusher counts as acknowledged (src/epcis/capture/progress.ts):
// a restart from any acknowledged point resends nothing acknowledged and
// skips nothing, documents may end inside an event, the filter does not
// shift the count; back-off with jitter stays within its bounds.
import { expect } from 'chai';
import type { Position } from '@eventstore/db-client';
import { advance, chunksOf, unacknowledged, type Acknowledged } from '../../src/epcis/capture/progress';
import { CAPTURE_BACKOFF } from '../../src/epcis/capture/push';
import { backoffDelay } from '../../src/core/retry';
import { randomBytes } from 'node:crypto';
import { isSealed, secretBox, SecretUnusable } from '../../src/core/secret-box';
import { authorizationOf, repositoryProblem, repositoryResponse, sealRepositoryCredentials, storedRepository } from '../../src/epcis/capture/repository';

const pos = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
// Three events: 3 facts, none, 4 facts; facts named e<event>.<i>.
const EVENTS = [
  { position: pos(10), items: ['a0', 'a1', 'a2'] },
  { position: pos(20), items: [] as string[] },
  { position: pos(30), items: ['c0', 'c1', 'c2', 'c3'] },
];
const ALL = ['a0', 'a1', 'a2', 'c0', 'c1', 'c2', 'c3'];

/** Sends the batch from `acked` in documents of `max` of the facts `accept` keeps, acknowledging each; returns what was sent and every acknowledged point. */
function send(acked: Acknowledged, max: number, accept: (s: string) => boolean = () => true): { sent: string[][]; points: Acknowledged[] } {
  const pending = unacknowledged(EVENTS, acked);
  const sent: string[][] = [];
  const points: Acknowledged[] = [];
  for (const c of chunksOf(pending, accept, max)) {
    sent.push([...c.items]);
    points.push(advance(acked, pending, c.through));
  }
  return { sent, points };
}

describe('EPCIS capture progress', () => {
  it('from the start: every fact once, in order, in documents of at most max', () => {
    const { sent } = send({ position: undefined, skip: 0 }, 2);
    expect(sent).to.deep.equal([['a0', 'a1'], ['a2', 'c0'], ['c1', 'c2'], ['c3']]);
  });

  it('a restart from any acknowledged point sends exactly the rest', () => {
    for (const max of [1, 2, 3, 5, 10]) {
      const { sent, points } = send({ position: undefined, skip: 0 }, max);
      let done = 0;
      points.forEach((p, i) => {
        done += sent[i]!.length;
        const rest = send(p, max).sent.flat();
        expect(rest, `max ${max}, after document ${i}: ${JSON.stringify(p, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}`).to.deep.equal(ALL.slice(done));
      });
    }
  });

  it('a document ending inside an event is remembered by position and skip', () => {
    const { points } = send({ position: undefined, skip: 0 }, 2);
    expect(points.map((p) => [p.position === undefined ? null : Number(p.position.commit), p.skip])).to.deep.equal([[null, 2], [10, 1], [10, 3], [30, 0]]);
  });

  it('facts the filter leaves out count too, so a filter cannot shift what a restart skips', () => {
    const onlyC = (s: string) => s.startsWith('c');
    const { sent, points } = send({ position: undefined, skip: 0 }, 2, onlyC);
    expect(sent).to.deep.equal([['c0', 'c1'], ['c2', 'c3']]);
    expect(send(points[0]!, 2).sent.flat()).to.deep.equal(['c2', 'c3']);
    expect(send(points[0]!, 2, () => true).sent.flat()).to.deep.equal(['c2', 'c3']);
  });

  it('back-off doubles to its cap with jitter between half and all of it', () => {
    // As the pusher asks it: attempt n (from 1) is the back-off's failure n - 1.
    const p = { ...CAPTURE_BACKOFF, initialMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 30].map((n) => backoffDelay(p, n - 1, () => 1))).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    expect([1, 2, 5].map((n) => backoffDelay(p, n - 1, () => 0))).to.deep.equal([50, 100, 500]);
    expect(CAPTURE_BACKOFF).to.deep.equal({ initialMs: 500, maxMs: 60_000, jitter: 0.5 });
  });

  it('repository credentials are write-only, kept on a replace that leaves them out, removed by null', () => {
    const box = secretBox(randomBytes(32));
    // Unsealed, as versions before sealing stored them: still used as they are.
    const first = storedRepository({ name: 'r', captureUrl: 'https://repo.example/capture', username: 'u', password: 'p' }, undefined);
    expect(authorizationOf(first, box)).to.equal(`Basic ${Buffer.from('u:p').toString('base64')}`);
    const response = repositoryResponse(first);
    expect(JSON.stringify(response)).not.to.contain('"p"');
    expect(response).to.include({ passwordSet: true, bearerTokenSet: false, username: 'u', enabled: true, maxEventsPerDocument: 500 });
    const kept = storedRepository({ name: 'r', captureUrl: 'https://repo.example/capture', username: 'u' }, first);
    expect(kept.password).to.equal('p');
    const bearer = storedRepository({ name: 'r', captureUrl: 'https://repo.example/capture', username: null, password: null, bearerToken: 't' }, first);
    expect(authorizationOf(bearer, box)).to.equal('Bearer t');
    expect(repositoryProblem(storedRepository({ name: 'r', captureUrl: 'https://x.example/', bearerToken: 't' }, first))).to.deep.include({ path: 'body.bearerToken' });
    expect(repositoryProblem(storedRepository({ name: 'r', captureUrl: 'https://x.example/', username: 'u' }, undefined))).to.deep.include({ path: 'body.password' });
  });

  it('repository credentials are stored sealed and opened only for the request; null and absent stay as they are', () => {
    const box = secretBox(randomBytes(32));
    const body = { name: 'r', captureUrl: 'https://repo.example/capture', username: 'u', password: 'pw-1', bearerToken: null };
    const stored = storedRepository(sealRepositoryCredentials(body, box), undefined);
    expect(isSealed(stored.password!)).to.equal(true);
    expect(JSON.stringify(stored)).not.to.contain('pw-1');
    expect(stored.bearerToken).to.equal(null);
    expect(authorizationOf(stored, box)).to.equal(`Basic ${Buffer.from('u:pw-1').toString('base64')}`);
    expect(() => authorizationOf(stored, secretBox(randomBytes(32)))).to.throw(SecretUnusable);
    const token = storedRepository(sealRepositoryCredentials({ name: 'r', captureUrl: 'https://repo.example/capture', bearerToken: 'tk-1' }, box), undefined);
    expect(isSealed(token.bearerToken!)).to.equal(true);
    expect(authorizationOf(token, box)).to.equal('Bearer tk-1');
    expect(sealRepositoryCredentials({ name: 'r', captureUrl: 'https://repo.example/capture' }, box)).not.to.have.any.keys('password', 'bearerToken');
  });
});
