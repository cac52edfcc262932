import * as t from 'io-ts';

/** One field-level problem, the shape the HTTP error body also uses (`errors[]`). */
export interface FieldError {
  /** Dotted path from the decoded root, e.g. `data.zones.0.name`; '' for the root itself. */
  path: string;
  reason: string;
}

function isCompositeMember(parent: t.Decoder<unknown, unknown> | undefined): boolean {
  // Union and intersection members appear in io-ts contexts under their
  // member index ("0", "1"); that index means nothing to a reader of the
  // path, so it is dropped.
  // t.readonly wraps its codec without a context entry of its own.
  const type = parent instanceof t.ReadonlyType ? (parent.type as unknown) : parent;
  return type instanceof t.UnionType || type instanceof t.IntersectionType;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return typeof value;
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  } catch {
    return typeof value;
  }
}

/** The keys from the decoded root to the value an error is about, as they index the value (no union or intersection member indices). */
export function valueKeys(error: t.ValidationError): string[] {
  const keys: string[] = [];
  error.context.forEach((entry, i) => {
    if (i === 0) return; // the root entry has an empty key
    if (isCompositeMember(error.context[i - 1]?.type)) return;
    keys.push(entry.key);
  });
  return keys;
}

/**
 * Turns io-ts errors into readable `{path, reason}` entries, one per path
 * (io-ts reports a failing union once per member; a reader wants it once).
 */
export function formatDecodeErrors(errors: t.Errors, prefix = ''): FieldError[] {
  const byPath = new Map<string, FieldError>();
  for (const error of errors) {
    const path = (prefix ? [prefix, ...valueKeys(error)] : valueKeys(error)).join('.');
    const last = error.context[error.context.length - 1];
    const expected = last?.type.name ?? 'valid value';
    const reason =
      error.message ??
      (error.value === undefined
        ? `is required (${expected})`
        : `expected ${expected}, got ${describe(error.value)}`);
    if (!byPath.has(path)) byPath.set(path, { path, reason });
  }
  return [...byPath.values()];
}
