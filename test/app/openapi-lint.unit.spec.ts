// The OpenAPI document as client generators and API tools see it: every
// operation named by a stable operationId, and nothing Redocly's recommended
// rule set counts as an error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect } from 'chai';
import { API_VERSION, openApiDocument } from '../../src/core/http/routes';
import { routeTableSpecs } from '../support/routes';

type Operations = Record<string, Record<string, { operationId?: string }>>;

const document = (): Record<string, unknown> => openApiDocument(routeTableSpecs(), '/itemsense', API_VERSION);

/**
 * The published ids, `METHOD path` -> operationId. Generated clients name
 * their methods after them, so a rename breaks every client built before it:
 * a new route adds its line here, an existing line never changes.
 */
const PUBLISHED: Record<string, string> = JSON.parse(readFileSync(join(__dirname, 'operation-ids.json'), 'utf8')) as Record<string, string>;

/**
 * Warnings of the recommended rules that stay, each for a reason:
 * - info-license: the service is not published under a licence;
 * - no-ambiguous-paths: `readerDefinitions/destroy/{name}` and
 *   `readerDefinitions/{name}/featureChanges` are both paths of the
 *   interface clients already call (a literal segment wins, as in the router).
 */
const ACCEPTED_WARNINGS = ['info-license', 'no-ambiguous-paths'];

describe('OpenAPI document: operation ids and lint', function () {
  this.timeout(60_000);

  it('gives every operation its published, unique, lowerCamelCase operationId', () => {
    const ids: Record<string, string | undefined> = {};
    for (const [path, ops] of Object.entries((document()['paths'] ?? {}) as Operations)) {
      for (const [method, op] of Object.entries(ops)) ids[`${method.toUpperCase()} ${path}`] = op.operationId;
    }
    expect(ids).to.deep.equal(PUBLISHED);
    const names = Object.values(ids);
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'ids used twice').to.deep.equal([]);
    expect(names.filter((n) => !/^[a-z][A-Za-z0-9]*$/.test(n ?? '')), 'ids not lowerCamelCase').to.deep.equal([]);
  });

  it("has no errors under Redocly's recommended rules, and only the accepted warnings", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document()), absoluteRef: 'openapi.json', config });
    const describe = (p: (typeof problems)[number]): string => `${p.ruleId} ${p.message} at ${p.location[0]?.pointer ?? '?'}`;
    expect(problems.filter((p) => p.severity === 'error').map(describe), 'errors').to.deep.equal([]);
    expect(problems.filter((p) => !ACCEPTED_WARNINGS.includes(p.ruleId)).map(describe), 'other problems').to.deep.equal([]);
    const ambiguous = problems.filter((p) => p.ruleId === 'no-ambiguous-paths').map((p) => p.message);
    expect(ambiguous, 'the one ambiguous pair').to.have.length(1);
    expect(ambiguous[0]).to.contain('/configuration/v1/readerDefinitions/destroy/{readerDefinitionName}');
  });
});
