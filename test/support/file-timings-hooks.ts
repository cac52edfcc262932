// Mocha root hooks: with TEST_TIMINGS=<file>, each spec file's wall time
// (from its first hook to its last, as a parallel worker runs it) is
// appended to <file> as one JSON line. `npm run test:timings` turns those
// lines into test/durations.json, which the test runner uses to hand the
// slowest files to the parallel workers first (a slow file started last
// would otherwise run alone at the end of the stage).
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const workerpool = require('workerpool') as { isMainThread: boolean };

let started = 0;

interface RootContext {
  readonly test?: { readonly parent?: { readonly suites?: ReadonlyArray<{ readonly file?: string }> } };
}

export const mochaHooks = {
  beforeAll(): void {
    started = Date.now();
  },
  afterAll(this: RootContext): void {
    const out = process.env['TEST_TIMINGS'];
    const file = this.test?.parent?.suites?.find((s) => s.file !== undefined)?.file;
    // Serial runs run root hooks once for all files: nothing per file to say.
    if (!out || file === undefined || workerpool.isMainThread) return;
    appendFileSync(out, `${JSON.stringify({ file: relative(process.cwd(), file), ms: Date.now() - started })}\n`);
  },
};
