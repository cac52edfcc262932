// The check `npm start` (and every command that runs dist/) makes before it
// runs: dist/ is rebuilt when it was never built or a source is newer.
import { expect } from 'chai';
import { staleReason } from '../../scripts/build.mjs';

describe('scripts/build.mjs --if-stale', () => {
  const sources = [
    { file: 'src/main.ts', mtimeMs: 1000 },
    { file: 'tsconfig.json', mtimeMs: 500 },
  ];

  it('builds when dist/ was never built', () => {
    expect(staleReason(undefined, sources)).to.equal('dist/ has not been built');
  });

  it('runs the build as it is when no source is newer than it', () => {
    expect(staleReason(1000, sources)).to.equal(undefined);
    expect(staleReason(5000, [])).to.equal(undefined);
  });

  it('builds again when a source is newer, naming a few of them', () => {
    expect(staleReason(999, sources)).to.equal('1 source file(s) changed since the last build (src/main.ts)');
    const many = Array.from({ length: 5 }, (_, i) => ({ file: `src/f${i}.ts`, mtimeMs: 2000 }));
    expect(staleReason(1500, many)).to.equal('5 source file(s) changed since the last build (src/f0.ts, src/f1.ts, src/f2.ts, ...)');
  });
});
