// The factory defaults: what a fresh install holds besides the admin user and
// the DEFAULT facility, under the names clients and configuration tools know
// (they skip these when clearing a configuration). Written as request bodies
// and stored through the same validation as a client's create, so a default
// is exactly what the interface would store for that body. docs/defaults.md
// lists them with the reasons for the values.

/** Reader configurations, by name. */
export const DEFAULT_READER_CONFIGURATIONS: ReadonlyArray<Record<string, unknown> & { name: string }> = [
  // Disables a reader within a recipe (an override for readers that must stay quiet).
  { name: 'IMPINJ_Do_Nothing', operation: 'DO_NOTHING' },
  // Deep scan: the most sensitive mode (Miller M=8 backscatter) for large,
  // hard-to-read populations; session 2 keeps read tags quiet for a while so
  // the weak ones get airtime; DUAL_TARGET reads them again from the B state,
  // so a standing inventory keeps seeing every tag.
  {
    name: 'IMPINJ_Deep_Scan_Inventory',
    operation: 'INVENTORY',
    configuration: { readerMode: 'MAX_MILLER', session: 2, searchMode: 'DUAL_TARGET', tagPopulationEstimate: 100 },
  },
  // The same for xSpan: its beams are polarized, reading both polarizations
  // separately finds tags whose antenna lies across one of them.
  {
    name: 'IMPINJ_Deep_Scan_Inventory_xSpan',
    operation: 'INVENTORY',
    configuration: { readerMode: 'MAX_MILLER', session: 2, searchMode: 'DUAL_TARGET', tagPopulationEstimate: 100, polarization: true },
  },
  // Several readers close together: the dense-reader mode keeps their
  // channels apart (Miller M=4, a slower link than MAX_THROUGHPUT).
  {
    name: 'IMPINJ_Dense_Reader_Mode_Inventory',
    operation: 'INVENTORY',
    configuration: { readerMode: 'DENSE_READER_M4', session: 2, searchMode: 'DUAL_TARGET', tagPopulationEstimate: 100 },
  },
  // LOCATION needs session 2 or 3 (flags persist between rounds).
  { name: 'IMPINJ_Dense_Reader_Mode_Location', operation: 'LOCATION', configuration: { readerMode: 'DENSE_READER_M4', session: 2 } },
  { name: 'IMPINJ_Deep_Scan_Location', operation: 'LOCATION', configuration: { readerMode: 'MAX_MILLER', session: 2 } },
  // Fastest link: more reads per second, so positions update quickly; for
  // few readers and little interference.
  { name: 'IMPINJ_Fast_Location', operation: 'LOCATION', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2 } },
  // Doorways: tags pass quickly, so the fastest link, and the B-to-A select
  // search so a tag read on one side is read again on the other.
  {
    name: 'IMPINJ_All_Thresholds',
    operation: 'THRESHOLD',
    configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET_WITH_BTOASELECT' },
  },
];

const INVENTORY_TIMING = { tagHeartbeatDuration: 'PT5M', tagExpiryDuration: null, computeWindow: 20, reportingInterval: 5 };
const LOCATION_TIMING = { tagHeartbeatDuration: 'PT5M', tagExpiryDuration: null, minimumMovementInMeters: 1, computeWindow: 10, reportingInterval: 5 };

/** Recipes, by name: one per reader configuration but IMPINJ_Do_Nothing, using it for every reader. */
export const DEFAULT_RECIPES: ReadonlyArray<Record<string, unknown> & { name: string }> = [
  { name: 'IMPINJ_Deep_Scan_Inventory', type: 'INVENTORY', readerConfigurationName: 'IMPINJ_Deep_Scan_Inventory', ...INVENTORY_TIMING },
  { name: 'IMPINJ_Deep_Scan_Inventory_xSpan', type: 'INVENTORY', readerConfigurationName: 'IMPINJ_Deep_Scan_Inventory_xSpan', ...INVENTORY_TIMING },
  { name: 'IMPINJ_Dense_Reader_Mode_Inventory', type: 'INVENTORY', readerConfigurationName: 'IMPINJ_Dense_Reader_Mode_Inventory', ...INVENTORY_TIMING },
  { name: 'IMPINJ_Dense_Reader_Mode_Location', type: 'LOCATION', readerConfigurationName: 'IMPINJ_Dense_Reader_Mode_Location', ...LOCATION_TIMING },
  { name: 'IMPINJ_Deep_Scan_Location', type: 'LOCATION', readerConfigurationName: 'IMPINJ_Deep_Scan_Location', ...LOCATION_TIMING },
  { name: 'IMPINJ_Fast_Location', type: 'LOCATION', readerConfigurationName: 'IMPINJ_Fast_Location', ...LOCATION_TIMING },
  // Empty thresholdIds: every threshold of the job's facility.
  { name: 'IMPINJ_All_Thresholds', type: 'THRESHOLD', readerConfigurationName: 'IMPINJ_All_Thresholds', thresholdIds: [] },
];

/**
 * Threshold antenna configurations per reader arrangement, with fixed ids
 * (1, 2, ...) so documentation and clients can name them. xArray beams: 1 is
 * straight down, 2-7, 8-19, 20-34 and 35-52 are rings further out; the
 * inbound and outbound beams look to opposite sides of the doorway.
 */
export const DEFAULT_ANTENNA_CONFIGURATIONS: ReadonlyArray<Record<string, unknown> & { id: number; name: string }> = [
  { id: 1, name: 'xArray Overhead', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: 13 }], out: [{ antennaId: 17 }], ignored: [] },
  // Mounted beside the doorway: beams of the outer ring reach across it.
  { id: 2, name: 'xArray Overhead Offset', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD_OFFSET', in: [{ antennaId: 24 }], out: [{ antennaId: 30 }], ignored: [] },
  // Two readers, one on each side of a wide doorway: mirror images.
  { id: 3, name: 'xArray Side by Side Left', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'SIDE_BY_SIDE', in: [{ antennaId: 13 }], out: [{ antennaId: 17 }], ignored: [] },
  { id: 4, name: 'xArray Side by Side Right', side: 'RIGHT', readerType: 'XARRAY', readerArrangement: 'SIDE_BY_SIDE', in: [{ antennaId: 17 }], out: [{ antennaId: 13 }], ignored: [] },
];
