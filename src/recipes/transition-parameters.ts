// A THRESHOLD recipe's optional `transitionParameters`: the parameters of
// threshold transition detection, in seconds, each bounded; the engine turns
// them into milliseconds with its defaults for what is not given
// (src/engine/threshold/params.ts; docs/item-processing.md, "Threshold
// transitions").
import * as t from 'io-ts';
import { failureReason } from '../core/codecs';

function ranged(name: string, min: number, max: number): t.Type<number, number, unknown> {
  const is = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u) && u >= min && u <= max;
  return new t.Type<number, number, unknown>(
    name,
    is,
    (u, c) => (is(u) ? t.success(u) : t.failure(u, c, failureReason(name, `must be a number from ${min} to ${max}`, u))),
    t.identity,
  );
}

/** The recipe field as given and stored (every member optional: defaults fill the rest). */
export const TransitionParameters = t.exact(
  t.partial({
    passageWindowSeconds: ranged('seconds 1-120', 1, 120),
    quietSeconds: ranged('seconds 0.25-30', 0.25, 30),
    settleSeconds: ranged('seconds 0.25-60', 0.25, 60),
    minConfidence: ranged('number 0-1', 0, 1),
    minBalanceShift: ranged('number 0.05-2', 0.05, 2),
  }),
  'TransitionParameters',
);
export type TransitionParameters = t.TypeOf<typeof TransitionParameters>;
