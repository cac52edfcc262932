// What src/readers offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { default as IOT_BODIES_SCHEMA } from './iot-bodies.schema.json';
export { doorPlanOf } from './door';
export { RF_MODE_OF, SEARCH_MODE_OF, THRESHOLD_REPORT_INTERVAL_MS, thresholdDoorPlan, type DoorPlan, type DoorPlanInput } from './plan';
