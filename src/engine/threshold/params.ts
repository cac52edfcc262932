// The parameters of threshold transition detection (docs/item-processing.md,
// "Threshold transitions"): given in a THRESHOLD recipe's optional
// `transitionParameters`, each with a default that suits people walking
// through a door at 1-2 m/s with the reader's antennas 1-3 m either side.
// Seconds in the recipe (as every recipe duration is; the recipe field's
// codec is src/recipes/transition-parameters.ts), milliseconds here.
import type { TransitionParameters } from '../../recipes';

export interface TransitionParams {
  /** Only the reads of the last passageWindowMs before a decision count. */
  readonly passageWindowMs: number;
  /** A tag not read for quietMs has left the field: its passage is decided. */
  readonly quietMs: number;
  /** A tag read mostly on the far side for settleMs is decided without waiting to go quiet. */
  readonly settleMs: number;
  /** Transitions whose confidence is below this are not reported. */
  readonly minConfidence: number;
  /** The balance between the sides (-1 all OUT .. +1 all IN) must move at least this much from the start to the end of a passage. */
  readonly minBalanceShift: number;
}

export const DEFAULT_TRANSITION_PARAMS: TransitionParams = {
  passageWindowMs: 10_000,
  quietMs: 1_500,
  settleMs: 3_000,
  minConfidence: 0.5,
  minBalanceShift: 0.3,
};

/** Recipe field (seconds, optional members) -> parameters (ms, all set). */
export function transitionParamsOf(p: TransitionParameters | undefined): TransitionParams {
  const d = DEFAULT_TRANSITION_PARAMS;
  const ms = (s: number | undefined, fallback: number): number => (s === undefined ? fallback : Math.round(s * 1000));
  return {
    passageWindowMs: ms(p?.passageWindowSeconds, d.passageWindowMs),
    quietMs: ms(p?.quietSeconds, d.quietMs),
    settleMs: ms(p?.settleSeconds, d.settleMs),
    minConfidence: p?.minConfidence ?? d.minConfidence,
    minBalanceShift: p?.minBalanceShift ?? d.minBalanceShift,
  };
}
