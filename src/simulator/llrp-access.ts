// What the simulated LLRP reader makes of an ADD_ACCESSSPEC, read by its own
// hand from LLRP 1.0.1's layouts (16.2.5), not with tagtrail's decoder: the
// AccessSpecID and the first C1G2Read (341) of its AccessCommand, so the
// reader can answer each tag's read of that bank in its reports.

export interface SimAccessRead {
  readonly accessSpecId: number;
  readonly opSpecId: number;
  /** Memory bank: 0 reserved, 1 EPC, 2 TID, 3 user. */
  readonly bank: number;
  readonly wordPointer: number;
  readonly wordCount: number;
}

/** TLV parameters of `b` from `at` to `end`: [type, value start, next]. TV parameters (high bit) do not occur in an AccessSpec. */
function* tlvs(b: Buffer, at: number, end: number): Generator<[number, number, number]> {
  while (at + 4 <= end) {
    const length = b.readUInt16BE(at + 2);
    if (length < 4 || at + length > end) return;
    yield [b.readUInt16BE(at) & 0x3ff, at + 4, at + length];
    at += length;
  }
}

/** Fixed field bytes before the sub-parameters of the parameters on the way to C1G2Read. */
const FIXED: Readonly<Record<number, number>> = { 207: 12, 209: 0, 208: 3, 338: 0, 239: 1 };

function findRead(b: Buffer, at: number, end: number): { v: number } | null {
  for (const [type, v, next] of tlvs(b, at, end)) {
    if (type === 341) return { v };
    const fixed = FIXED[type];
    if (fixed !== undefined) {
      const inner = findRead(b, v + fixed, next);
      if (inner !== null) return inner;
    }
  }
  return null;
}

/** The AccessSpec of an ADD_ACCESSSPEC body and its C1G2Read; null when it has none. */
export function readAccessSpec(body: Buffer): SimAccessRead | null {
  for (const [type, v, next] of tlvs(body, 0, body.length)) {
    if (type !== 207) continue;
    const read = findRead(body, v + 12, next);
    if (read === null) return null;
    // C1G2Read: u16 OpSpecID, u32 AccessPassword, 2-bit MB and 6 reserved, u16 WordPointer, u16 WordCount.
    const r = read.v;
    return { accessSpecId: body.readUInt32BE(v), opSpecId: body.readUInt16BE(r), bank: body.readUInt8(r + 6) >> 6, wordPointer: body.readUInt16BE(r + 7), wordCount: body.readUInt16BE(r + 9) };
  }
  return null;
}

/** Whether an ADD_ROSPEC body's ROSpec (177: u32 id, u8 priority, u8 state, then its parameters) holds Impinj's ImpinjLISpec (custom subtype 1541): the host asks the reader to locate tags. */
export function asksLocations(body: Buffer): boolean {
  for (const [type, v, next] of tlvs(body, 0, body.length)) {
    if (type !== 177) continue;
    for (const [inner, iv, inext] of tlvs(body, v + 6, next)) {
      if (inner === 1023 && inext - iv >= 8 && body.readUInt32BE(iv) === 25882 && body.readUInt32BE(iv + 4) === 1541) return true;
    }
  }
  return false;
}

/** Whether a message body holds a top-level parameter of `type` from byte `start` (SET_READER_CONFIG: after its 1-byte reset flag). */
export function hasParam(body: Buffer, start: number, type: number): boolean {
  for (const [t] of tlvs(body, start, body.length)) if (t === type) return true;
  return false;
}

/** Whether a message body holds, at its top level from byte `start`, Impinj's custom parameter (1023, vendor 25882) of `subtype`. */
export function hasImpinjParam(body: Buffer, start: number, subtype: number): boolean {
  for (const [t, v, next] of tlvs(body, start, body.length)) if (t === 1023 && next - v >= 8 && body.readUInt32BE(v) === 25882 && body.readUInt32BE(v + 4) === subtype) return true;
  return false;
}
