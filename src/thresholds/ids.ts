// Integer ids of thresholds and antenna configurations are assigned by the
// service. Recipes (`thresholdIds`) and thresholds (`antennaConfigurationId`)
// refer to them, so an id must never come back for something else: callers
// pass every id ever assigned, deleted ones included.

/** One more than the largest id used so far; 1 for the first. */
export function nextId(usedIds: Iterable<number>): number {
  let max = 0;
  for (const id of usedIds) if (id > max) max = id;
  return max + 1;
}
