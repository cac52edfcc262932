// The pieces hand-written guards are built from, where a guard stands in
// front of an io-ts codec on a hot path (src/core/stored-json.ts,
// withFastCheck): each accepts exactly what the matching io-ts codec does.

/** What t.type takes for an object: a plain record, not an array. */
export const isPlainRecord = (u: unknown): u is Record<string, unknown> => Object.prototype.toString.call(u) === '[object Object]';
/** t.union([t.string, t.null]) */
export const isStringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
/** t.union([t.number, t.null]) */
export const isNumberOrNull = (v: unknown): boolean => v === null || typeof v === 'number';
