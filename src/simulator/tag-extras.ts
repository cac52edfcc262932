// What simulated readers report beyond EPC, antenna and RSSI when a host asks
// for it (LLRP: Impinj's serialized TID and RF phase angle; IoT interface:
// tidHex and phaseAngle): a TID fixed per tag, derived from its EPC (an
// Impinj Monza-like class E2, mask designer 801, serial from the EPC), and a
// phase angle that turns with the tag's distance, here with the read time.

/** The tag's 96-bit TID as upper-case hex. */
export function simulatedTid(epc: string): string {
  return `E2801160${epc.slice(-16).padStart(16, '0')}`.toUpperCase();
}

/** A phase angle in degrees (0-360), as a reader quantises it (4096 steps a turn). */
export function simulatedPhase(epc: string, atMs: number): number {
  let h = 0;
  for (let i = 0; i < epc.length; i++) h = (h * 31 + epc.charCodeAt(i)) >>> 0;
  return (((h + Math.floor(atMs)) % 4096) * 360) / 4096;
}
