// Every curl example of README.md and docs/*.md runs as written against a
// fresh service (one per file, examples in document order in one shell) and
// gets the status the documentation shows after it, or a 2xx
// (scripts/doc-examples.ts).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeResult, documentationFiles, extractDocExamples, runDocExamples } from '../../scripts/doc-examples';
import { startTestApp } from '../support/app';

const ROOT = path.resolve(__dirname, '..', '..');

describe('documentation examples run as written', function () {
  this.timeout(180_000);

  it('finds the examples: curl commands, their documented status, assignments run unchecked', () => {
    const { run, skipped } = extractDocExamples(
      [
        '```sh',
        "curl -u admin:admindefault -H 'Content-Type: application/json' \\",
        "  -d '{\"name\":\"a\"}' http://localhost:8080/itemsense/x",
        '# 409 {"message":"..."}',
        'TOKEN=$(curl -s http://localhost:8080/itemsense/t | jq -r .token)',
        'npm start &',
        'curl -s http://localhost:8090/healthz',
        '```',
      ].join('\n'),
      'x.md',
    );
    expect(run.map((e) => [e.line, e.expected, e.checked])).to.deep.equal([[2, 409, true], [5, null, true]]);
    expect(run[0]!.command).to.contain('-d \'{"name":"a"}\'');
    expect(skipped.map((e) => e.line)).to.deep.equal([7]);
  });

  for (const file of documentationFiles(ROOT)) {
    const { run } = extractDocExamples(readFileSync(path.join(ROOT, file), 'utf8'), file);
    if (run.length === 0) continue;
    it(`${file}: ${run.length} examples`, async () => {
      const app = await startTestApp();
      try {
        const origin = new URL(app.baseUrl).origin;
        const results = await runDocExamples(run, origin);
        const failed = results.filter((r) => !r.ok);
        expect(failed.length, `\n${failed.map(describeResult).join('\n\n')}`).to.equal(0);
      } finally {
        await app.stop();
      }
    });
  }
});
