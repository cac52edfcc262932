// What src/brokerauth offers to other slices and to projections: nothing. Its
// routes are mounted by src/app (outside ROOT_PATH); everything in this folder
// is its own (docs/architecture.md, "Boundaries").
export {};
