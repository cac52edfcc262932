// The EPC of an EPCIS event: its pure identity URI (GS1 EPC Tag Data
// Standard), which is what EPCIS epcList holds. An EPC that does not decode
// under TDS (docs/item-processing.md, "epcFormat") is written as the TDS EPC
// Raw URI, `urn:epc:raw:<bits>.x<HEX>`, so the observation is still reported
// and a consumer sees that it is not a GS1 identifier.
import { formatEpc, normalizeEpc } from '../items';

export function epcUriOf(hex: string): string {
  const pure = formatEpc(hex, 'PURE_ID');
  if (pure !== undefined) return pure;
  const raw = normalizeEpc(hex) ?? hex.toUpperCase();
  return `urn:epc:raw:${raw.length * 4}.x${raw}`;
}

/**
 * MATCH_epc of the EPCIS query interface: a pure identity URI matches
 * itself; a pattern `urn:epc:idpat:<scheme>:<f1>.<f2>...` matches the pure
 * identities of that scheme whose fields equal the pattern's, `*` matching
 * any value of its field (TDS pattern URIs: `sgtin:0614141.812345.*` is a
 * class, `sgtin:0614141.*.*` a company). A raw URI matches itself only.
 */
export function epcMatches(pattern: string, epc: string): boolean {
  if (!pattern.startsWith(PATTERN)) return pattern === epc;
  if (!epc.startsWith(PURE)) return false;
  const [pScheme, pFields] = splitScheme(pattern.slice(PATTERN.length));
  const [eScheme, eFields] = splitScheme(epc.slice(PURE.length));
  if (pScheme !== eScheme || pFields.length !== eFields.length) return false;
  return pFields.every((f, i) => f === '*' || f === eFields[i]);
}

/** Why a MATCH_epc value is not one this query takes, or undefined when it is. */
export function epcPatternProblem(value: string): string | undefined {
  if (value.startsWith(PURE) || value.startsWith('urn:epc:raw:')) return undefined;
  if (!value.startsWith(PATTERN)) return `must be a pure identity URI (urn:epc:id:...) or a pattern (urn:epc:idpat:...), got ${JSON.stringify(value)}`;
  const [scheme, fields] = splitScheme(value.slice(PATTERN.length));
  if (scheme === '' || fields.length === 0 || fields.some((f) => f === '')) return `is not a pattern URI (urn:epc:idpat:<scheme>:<field>.<field>...), got ${JSON.stringify(value)}`;
  return undefined;
}

const PURE = 'urn:epc:id:';
const PATTERN = 'urn:epc:idpat:';

function splitScheme(rest: string): [string, string[]] {
  const colon = rest.indexOf(':');
  if (colon < 0) return [rest, []];
  return [rest.slice(0, colon), rest.slice(colon + 1).split('.')];
}
