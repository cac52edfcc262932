// Module boundaries of src/ and projections/, checked by `npm run lint`
// (docs/architecture.md, "Boundaries"). A slice is a folder under src/ other
// than core/ and app/. test/, bench/ and scripts/ are not checked: tests
// reach into a module's internals to test them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle between files, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-depends-on-no-slice',
      severity: 'error',
      comment: 'src/core is plumbing without resource knowledge: it imports only src/core (and packages).',
      from: { path: '^src/core/' },
      to: { path: '^(src|projections)/', pathNot: '^src/core/' },
    },
    {
      name: 'slice-through-index',
      severity: 'error',
      comment: "A slice uses another slice only through that slice's index.ts (what it offers to others).",
      from: { path: '^src/([^/]+)/', pathNot: ['^src/(core|app)/', '(^|/)main\\.ts$'] },
      to: { path: '^src/([^/]+)/', pathNot: ['^src/$1/', '^src/(core|app)/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'projection-through-index',
      severity: 'error',
      comment: "A projection uses a slice only through the slice's index.ts.",
      from: { path: '^projections/' },
      to: { path: '^src/([^/]+)/', pathNot: ['^src/core/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'slices-do-not-import-projections',
      severity: 'error',
      comment: 'Projections depend on slices, not the other way round; src/app wires them together.',
      from: { path: '^src/', pathNot: ['^src/app/', '(^|/)main\\.ts$'] },
      to: { path: '^projections/' },
    },
    {
      name: 'read-models-stay-apart',
      severity: 'error',
      comment: "A read model's folder does not reach into another's; shared projection plumbing is in projections/*.ts.",
      from: { path: '^projections/([^/]+)/' },
      to: { path: '^projections/[^/]+/', pathNot: '^projections/$1/' },
    },
    {
      name: 'only-entry-points-import-app',
      severity: 'error',
      comment: 'src/app is the composition root: only entry points (main.ts) import it.',
      from: { path: '^(src|projections)/', pathNot: ['^src/app/', '(^|/)main\\.ts$'] },
      to: { path: '^src/app/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    // Type-only imports count: a type is as much a dependency as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
