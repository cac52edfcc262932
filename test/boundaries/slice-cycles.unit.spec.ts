// The lint step that keeps slices from needing each other
// (scripts/slice-cycles.mjs) finds cycles among slices, directly or through
// other slices, and leaves out what every slice meets: src/core, src/app and
// the composition files at the top of src/.
import { expect } from 'chai';
import { sliceCycles } from '../../scripts/slice-cycles.mjs';

const mod = (source: string, ...to: string[]): { source: string; dependencies: Array<{ resolved: string }> } => ({ source, dependencies: to.map((resolved) => ({ resolved })) });

describe('slice cycles (lint)', () => {
  it('finds two slices that import each other, and a cycle through a third', () => {
    expect(sliceCycles([mod('src/users', 'src/tokens'), mod('src/tokens', 'src/users')])).to.deep.equal(['tokens > users > tokens']);
    expect(sliceCycles([mod('src/a', 'src/b'), mod('src/b', 'src/c'), mod('src/c', 'src/a')])).to.deep.equal(['a > b > c > a']);
  });

  it('accepts a graph where slices only depend downwards', () => {
    expect(sliceCycles([mod('src/recipes', 'src/readerconfigurations', 'src/core'), mod('src/readerconfigurations', 'src/core'), mod('src/jobs', 'src/recipes')])).to.deep.equal([]);
  });

  it('leaves out core, app, the files at the top of src/ and a slice\'s imports of itself', () => {
    expect(
      sliceCycles([
        mod('src/jobs', 'src/config.ts', 'src/app', 'src/core', 'src/jobs'),
        mod('src/config.ts', 'src/jobs'),
        mod('src/app', 'src/jobs'),
        mod('src/core', 'src/jobs'),
        mod('projections', 'src/jobs'),
      ]),
    ).to.deep.equal([]);
  });
});
