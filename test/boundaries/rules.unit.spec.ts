// The module boundaries of `npm run lint` (.dependency-cruiser.cjs) fail on
// each kind of violation: the project's rules run on a small tree written
// here, with one allowed and one forbidden import of each kind (a cycle is
// reported once, at the file where the cruiser enters it).
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);

// file -> the files it imports (relative to the tree's root)
const TREE: Record<string, string[]> = {
  'src/core/log.ts': [],
  'src/core/bad.ts': ['src/recipes/kind.ts'],
  'src/recipes/kind.ts': ['src/core/log.ts'],
  'src/recipes/index.ts': ['src/recipes/kind.ts'],
  'src/jobs/good.ts': ['src/recipes/index.ts'],
  'src/jobs/bad.ts': ['src/recipes/kind.ts'],
  'src/jobs/reads-projection.ts': ['projections/items/readmodel.ts'],
  'src/jobs/cycle-a.ts': ['src/jobs/cycle-b.ts'],
  'src/jobs/cycle-b.ts': ['src/jobs/cycle-a.ts'],
  'src/jobs/uses-app.ts': ['src/app/start.ts'],
  'src/app/start.ts': ['src/recipes/kind.ts', 'projections/items/readmodel.ts'],
  'src/main.ts': ['src/app/start.ts'],
  'projections/items/readmodel.ts': ['src/recipes/index.ts'],
  'projections/items/bad.ts': ['src/recipes/kind.ts'],
  'projections/transitions/bad.ts': ['projections/items/readmodel.ts'],
};

function source(file: string, imports: string[]): string {
  const lines = imports.map((target, i) => {
    let rel = join(...dirname(file).split('/').map(() => '..'), target).replace(/\.ts$/, '');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `import * as m${i} from '${rel}';\nexport const use${i} = m${i};`;
  });
  return `${lines.join('\n')}\nexport const here = '${file}';\n`;
}

describe('module boundaries (dependency-cruiser rules of npm run lint)', function () {
  this.timeout(180_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tagtrail-boundaries-'));
    for (const [file, imports] of Object.entries(TREE)) {
      await mkdir(join(dir, dirname(file)), { recursive: true });
      await writeFile(join(dir, file), source(file, imports));
    }
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true }, include: ['src', 'projections'] }));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports exactly the forbidden imports, by rule', async () => {
    const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
    const config = join(ROOT, '.dependency-cruiser.cjs');
    const { stdout } = await run(bin, ['src', 'projections', '--config', config, '--output-type', 'json'], { cwd: dir, maxBuffer: 16 << 20 }).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
    );
    const report = JSON.parse(stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    const found = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).to.deep.equal(
      [
        'core-depends-on-no-slice: src/core/bad.ts -> src/recipes/kind.ts',
        'no-circular: src/jobs/cycle-a.ts -> src/jobs/cycle-b.ts',
        'only-entry-points-import-app: src/jobs/uses-app.ts -> src/app/start.ts',
        'projection-through-index: projections/items/bad.ts -> src/recipes/kind.ts',
        'read-models-stay-apart: projections/transitions/bad.ts -> projections/items/readmodel.ts',
        'slice-through-index: src/jobs/bad.ts -> src/recipes/kind.ts',
        'slices-do-not-import-projections: src/jobs/reads-projection.ts -> projections/items/readmodel.ts',
      ].sort(),
    );
  });
});
