// The two zone names the engine gives besides a zone map's own (a leaf
// module, so the expiry index and the engine's types both use them).

/** Zone of a tag treated as absent (never seen in this view, or expired). */
export const ABSENT = 'ABSENT';
/** Zone of a tag inside the facility but outside every zone. */
export const FACILITY = 'FACILITY';
