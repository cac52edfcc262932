// The simulated IoT reader checks every body it is sent against the JSON
// Schema of the reader interface's bodies (src/readers/iot-bodies.schema.json)
// and refuses what does not fit with a 400, as a reader does. The keywords that
// schema uses are checked here, by code of our own: the simulator runs where
// only the service's dependencies are installed, and the tests check the same
// bodies with a general validator (ajv) besides, so a mistake here shows.
// A keyword this does not know is an error, not a pass.

export interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: boolean;
  readonly items?: SchemaNode;
  readonly minItems?: number;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
}

export interface SchemaDocument {
  readonly definitions: Readonly<Record<string, SchemaNode>>;
}

const KNOWN = new Set(['$ref', 'type', 'required', 'properties', 'additionalProperties', 'items', 'minItems', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern']);

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

function typeProblem(type: string, v: unknown): string | null {
  const ok =
    (type === 'object' && isObject(v)) ||
    (type === 'array' && Array.isArray(v)) ||
    (type === 'string' && typeof v === 'string') ||
    (type === 'boolean' && typeof v === 'boolean') ||
    (type === 'number' && typeof v === 'number' && Number.isFinite(v)) ||
    (type === 'integer' && Number.isInteger(v));
  return ok ? null : `must be ${type === 'array' || type === 'object' || type === 'integer' ? 'an' : 'a'} ${type}`;
}

/** The first problem of `value` against `definition` of `doc` as "path: reason", or null when it fits. */
export function schemaProblem(doc: SchemaDocument, definition: string, value: unknown): string | null {
  const check = (node: SchemaNode, v: unknown, path: string): string | null => {
    const unknownKeyword = Object.keys(node).find((k) => !KNOWN.has(k));
    if (unknownKeyword !== undefined) throw new Error(`schema keyword ${unknownKeyword} is not checked by the simulator`);
    if (node.$ref !== undefined) {
      const target = doc.definitions[node.$ref.replace('#/definitions/', '')];
      if (target === undefined) throw new Error(`schema reference ${node.$ref} names no definition`);
      return check(target, v, path);
    }
    const type = node.type === undefined ? null : typeProblem(node.type, v);
    if (type !== null) return `${path}: ${type}`;
    if (node.enum !== undefined && !node.enum.includes(v)) return `${path}: must be one of ${node.enum.map((e) => JSON.stringify(e)).join(', ')}`;
    if (typeof v === 'number') {
      if (node.minimum !== undefined && v < node.minimum) return `${path}: must be at least ${node.minimum}`;
      if (node.maximum !== undefined && v > node.maximum) return `${path}: must be at most ${node.maximum}`;
    }
    if (typeof v === 'string') {
      if (node.minLength !== undefined && v.length < node.minLength) return `${path}: must have at least ${node.minLength} characters`;
      if (node.maxLength !== undefined && v.length > node.maxLength) return `${path}: must have at most ${node.maxLength} characters`;
      if (node.pattern !== undefined && !new RegExp(node.pattern, 'u').test(v)) return `${path}: must match ${node.pattern}`;
    }
    if (Array.isArray(v)) {
      if (node.minItems !== undefined && v.length < node.minItems) return `${path}: must have at least ${node.minItems} items`;
      for (let i = 0; node.items !== undefined && i < v.length; i++) {
        const p = check(node.items, v[i], `${path}[${i}]`);
        if (p !== null) return p;
      }
    }
    if (isObject(v)) {
      const missing = (node.required ?? []).find((k) => !(k in v));
      if (missing !== undefined) return `${path}.${missing}: is required`;
      for (const [k, member] of Object.entries(v)) {
        const sub = node.properties?.[k];
        if (sub === undefined) {
          if (node.additionalProperties === false) return `${path}.${k}: is not a member of this object`;
          continue;
        }
        const p = check(sub, member, `${path}.${k}`);
        if (p !== null) return p;
      }
    }
    return null;
  };
  const root = doc.definitions[definition];
  if (root === undefined) throw new Error(`no schema definition ${definition}`);
  return check(root, value, 'body');
}
