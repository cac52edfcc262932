// The AccessSpec tagtrail adds beside its ROSpec when a job asks for each
// tag's TID and the reader has no vendor extension that reports it (LLRP
// 1.0.1 section 10.2.2, 16.2.5): on every tag the ROSpec singulates, a
// C1G2Read of the TID bank (MB 2) from word 0; the words come back in the
// tag's TagReportData as C1G2ReadOpSpecResult (16.2.7.5.2).
import { MSG, P } from './constants';
import { encodeMessage } from './frame';
import { encodeParams } from './params';

/** "tt" again: recognisable among a reader's AccessSpecs. */
export const TAGTRAIL_ACCESSSPEC_ID = 0x7474;
/** The OpSpecID of the TID read: reads with another OpSpecID (someone else's AccessSpec) are not taken for the TID. */
export const TID_OPSPEC_ID = 0x7469; // "ti"
/**
 * Words read from the TID bank: 6 (96 bits), the class identifier, tag model and the 48-bit
 * serial of the extended TID most tags carry. A tag with a shorter TID bank fails the read (the
 * reader reports a non-zero result) and is reported without a TID.
 */
export const TID_WORDS = 6;
const TID_BANK = 2;

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/**
 * ADD_ACCESSSPEC (16.1.17) of the TID read: AccessSpec (AccessSpecID, AntennaID 0 = every
 * antenna, ProtocolID 1 = EPC Class 1 Gen 2, CurrentState 0 = disabled, ROSpecID), a null stop
 * trigger (it stays until deleted), an AccessCommand whose C1G2TagSpec's target matches every tag
 * (MB 1, Match, an empty mask) and one C1G2Read, and an AccessReportSpec reporting the result
 * with the tag's next RO report (trigger 0).
 */
export function addTidAccessSpec(id: number, roSpecId: number): Buffer {
  return encodeMessage(MSG.ADD_ACCESSSPEC, id, encodeParams([{
    type: P.AccessSpec,
    fields: { accessSpecId: TAGTRAIL_ACCESSSPEC_ID, antennaId: 0, protocolId: 1, currentState: 0, roSpecId },
    params: [
      { type: P.AccessSpecStopTrigger, fields: { triggerType: 0, operationCountValue: 0 } },
      {
        type: P.AccessCommand,
        params: [
          { type: P.C1G2TagSpec, params: [{ type: P.C1G2TargetTag, fields: { flags: (1 << 6) | (1 << 5), pointer: 0, tagMask: Buffer.alloc(0), tagData: Buffer.alloc(0) } }] },
          { type: P.C1G2Read, fields: { opSpecId: TID_OPSPEC_ID, accessPassword: 0, flags: TID_BANK << 6, wordPointer: 0, wordCount: TID_WORDS } },
        ],
      },
      { type: P.AccessReportSpec, fields: { accessReportTrigger: 0 } },
    ],
  }]));
}

/** ENABLE_ACCESSSPEC / DELETE_ACCESSSPEC (16.1.19, 16.1.18) of an AccessSpecID (0 = all, for DELETE). */
export const accessSpecCommand = (type: typeof MSG.ENABLE_ACCESSSPEC | typeof MSG.DELETE_ACCESSSPEC, id: number, accessSpecId: number): Buffer => encodeMessage(type, id, u32(accessSpecId));
