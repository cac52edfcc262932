// Fields named like secrets in the OpenAPI document, which is built from the
// same route table as the router: a body field is write-only, and no answer
// carries one, but for the answers that issue a secret once (tokens, agent
// secrets). A new secret field that is not declared so, or an answer that
// starts returning one, fails here and has to be looked at (is it sealed or
// hashed? docs/operations.md, "Secrets tagtrail presents to others").
import { expect } from 'chai';
import { API_VERSION, openApiDocument } from '../../src/core/http/routes';
import { routeSpecs } from '../support/routes';

const SECRET_NAMED = /password|token|secret|community|credential|key/i;

/** Answers whose secret is the point of the call, returned once when issued; listTokens shows token ids (not tokens). */
const ISSUED_ONCE = new Set([
  'GET /authentication/v1/token 200 token',
  'PUT /authentication/v1/token/{username} 200 token',
  'GET /authentication/v1/listTokens/{username} 200 []authenticationToken.token',
  'PUT /agent/v1/readers/{readerName}/secret 200 secret',
]);

interface Field {
  readonly path: string;
  readonly schema: Record<string, unknown>;
}

/** Every property named like a secret in a JSON Schema, with its dotted path (`[]` for array items). */
function secretNamedFields(schema: unknown, path = ''): Field[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const found: Field[] = [];
  for (const [name, sub] of Object.entries((s['properties'] ?? {}) as Record<string, Record<string, unknown>>)) {
    const at = path === '' || path.endsWith('[]') ? `${path}${name}` : `${path}.${name}`;
    if (SECRET_NAMED.test(name)) found.push({ path: at, schema: sub });
    found.push(...secretNamedFields(sub, at));
  }
  found.push(...secretNamedFields(s['items'], `${path}[]`));
  for (const k of ['allOf', 'oneOf', 'anyOf']) for (const sub of (s[k] ?? []) as unknown[]) found.push(...secretNamedFields(sub, path));
  return found;
}

type Operation = { requestBody?: { content?: Record<string, { schema?: unknown }> }; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

describe('fields named like secrets in the interface', () => {
  const fields = async (): Promise<{ bodies: Array<[string, Field]>; answers: Array<[string, Field]> }> => {
    const doc = openApiDocument(await routeSpecs(), '', API_VERSION) as { paths: Record<string, Record<string, Operation>> };
    const bodies: Array<[string, Field]> = [];
    const answers: Array<[string, Field]> = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const f of secretNamedFields(op.requestBody?.content?.['application/json']?.schema)) bodies.push([at, f]);
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          for (const f of secretNamedFields(r.content?.['application/json']?.schema)) answers.push([`${at} ${status}`, f]);
        }
      }
    }
    return { bodies, answers };
  };

  it('every body field named like a secret is write-only', async () => {
    const { bodies } = await fields();
    // The check looks at something: the credentials of users, readers, EPCIS repositories and SNMP.
    expect(bodies.map(([at, f]) => `${at} ${f.path}`)).to.include.members([
      'POST /configuration/v1/users/create password',
      'POST /configuration/v1/readerDefinitions/create connection.password',
      'PUT /configuration/v1/epcisRepositories/createOrReplace bearerToken',
      'PUT /configuration/v1/settings/SNMP authConfig.communityName',
    ]);
    expect(bodies.filter(([, f]) => f.schema['writeOnly'] !== true).map(([at, f]) => `${at} ${f.path}`), 'not writeOnly').to.deep.equal([]);
  });

  it('no answer carries one but the secrets issued once; the others say only whether one is set (a boolean)', async () => {
    const { answers } = await fields();
    const carried = answers.filter(([, f]) => f.schema['type'] !== 'boolean' && f.schema['type'] !== 'object').map(([at, f]) => `${at} ${f.path}`);
    expect(carried.filter((c) => !ISSUED_ONCE.has(c)), 'answers carrying a secret-named value').to.deep.equal([]);
    expect(carried, 'the issued-once list names answers that still exist').to.include.members([...ISSUED_ONCE]);
    const flags = answers.filter(([, f]) => f.schema['type'] === 'boolean').map(([, f]) => f.path);
    expect(flags).to.include.members(['connection.passwordSet', 'passwordSet', 'bearerTokenSet', 'authConfig.communityNameSet']);
  });
});
