// The LLRP codec against messages written byte by byte from the layouts of
// LLRP 1.0.1 (section 15: header 3 reserved bits | 3-bit version | 10-bit
// type, 32-bit length, 32-bit id; TLV parameters: 6 reserved bits | 10-bit
// type, 16-bit length including the 4-byte header; TV parameters: 1 | 7-bit
// type, then a value whose length the type fixes). The helpers (hand-frames.ts) only
// glue hex strings and count bytes, so the layouts are written out here and
// not produced by the code under test.
import { expect } from 'chai';
import { MSG } from '../../src/llrp/constants';
import { encodeMessage, LlrpFrameError, LlrpFramer } from '../../src/llrp/frame';
import { decodeParams, LlrpDecodeError } from '../../src/llrp/params';
import {
  addRoSpec,
  decodeAddRoSpec,
  decodeCapabilities,
  decodeReaderEvent,
  decodeTagReads,
  asksImpinjTemperature,
  getImpinjTemperature,
  keepaliveAck,
  readerTemperatureOf,
  readKeepaliveSpec,
  setReaderConfig,
  statusOf,
  type RoSpec,
} from '../../src/llrp/messages';
import { accessSpecCommand, addTidAccessSpec } from '../../src/llrp/access';
import { setLocationConfig } from '../../src/llrp/location';
import { h16, h32, hex, msg, tlv } from './hand-frames';

const EPC96 = '300833B2DDD9014000000001';
const EPC128 = 'E2801160600002054CC2A1B300000000';

/** RO_ACCESS_REPORT with two TagReportData: an EPC-96 one with Impinj PeakRSSI and a foreign custom parameter, an EPCData one. */
const report = msg(MSG.RO_ACCESS_REPORT, 0x11, [
  tlv(240, [
    `8D ${EPC96}`, // EPC-96 (TV 13, 12 bytes)
    '89 00000001', // ROSpecID (TV 9, 4 bytes)
    '81 0002', // AntennaID (TV 1) = 2
    '86 C4', // PeakRSSI (TV 6, signed) = -60 dBm
    '87 0005', // ChannelIndex (TV 7) = 5
    '82 0005C0C7F2D41000', // FirstSeenTimestampUTC (TV 2, microseconds) = 1621021740000000 + 0x1000
    '84 0005C0C7F2D42000', // LastSeenTimestampUTC (TV 4)
    '88 0003', // TagSeenCount (TV 8) = 3
    tlv(1023, `${h32(9999)} ${h32(7)} DEADBEEF`), // a vendor's custom parameter tagtrail does not know
    tlv(1023, `${h32(25882)} ${h32(57)} E926`), // ImpinjPeakRSSI = -5850 (hundredths of dBm)
  ].join('')),
  tlv(240, [
    tlv(241, `0080 ${EPC128}`), // EPCData: 128 bits
    '81 0001',
    '86 B5', // -75
  ].join('')),
].join(''));

describe('llrp/frame', () => {
  it('given KEEPALIVE_ACK, when encoded, then header bytes are version 1, type 72, length 10, the id', () => {
    expect(keepaliveAck(7).toString('hex')).to.equal('0448' + '0000000a' + '00000007');
    expect(encodeMessage(MSG.KEEPALIVE, 0x01020304).toString('hex')).to.equal('043e0000000a01020304');
  });

  it('given a message split into single bytes, when pushed, then it is whole once its last byte arrives', () => {
    const framer = new LlrpFramer();
    const got = [];
    for (let i = 0; i < report.length; i++) {
      const out = framer.push(report.subarray(i, i + 1));
      if (i < report.length - 1) expect(out, `byte ${i}`).to.have.length(0);
      got.push(...out);
    }
    expect(got).to.have.length(1);
    expect(got[0]).to.include({ version: 1, type: MSG.RO_ACCESS_REPORT, id: 0x11 });
    expect(got[0]?.body.equals(report.subarray(10))).to.equal(true);
    expect(framer.pending).to.equal(0);
  });

  it('given three messages coalesced with a fourth cut in half, when pushed, then three come out and the fourth after its rest', () => {
    const keepalive = msg(MSG.KEEPALIVE, 1, '');
    const all = Buffer.concat([keepalive, report, keepalive, report]);
    const cut = all.length - 20;
    const framer = new LlrpFramer();
    expect(framer.push(all.subarray(0, cut)).map((m) => m.type)).to.deep.equal([MSG.KEEPALIVE, MSG.RO_ACCESS_REPORT, MSG.KEEPALIVE]);
    expect(framer.push(all.subarray(cut)).map((m) => m.type)).to.deep.equal([MSG.RO_ACCESS_REPORT]);
  });

  it('given a length below the header size, when pushed, then a frame error (the connection cannot resync)', () => {
    expect(() => new LlrpFramer().push(hex('043e 00000004 00000001'))).to.throw(LlrpFrameError);
  });
});

describe('llrp/messages tag reports', () => {
  it('given RO_ACCESS_REPORT built from the layouts, when decoded, then every read with its fields; custom parameters of other vendors skipped', () => {
    const [m] = new LlrpFramer().push(report);
    const reads = decodeTagReads(m?.body ?? Buffer.alloc(0));
    expect(reads).to.have.length(2);
    expect(reads[0]).to.deep.include({ epc: EPC96, antennaId: 2, channelIndex: 5, seenCount: 3, peakRssi: -58.5 });
    expect(reads[0]?.firstSeenUs).to.equal(0x0005c0c7f2d41000);
    expect(reads[0]?.lastSeenUs).to.equal(0x0005c0c7f2d42000);
    expect(reads[1]).to.deep.include({ epc: EPC128, antennaId: 1, peakRssi: -75, seenCount: null, firstSeenUs: null });
  });

  it('given TagReportData with ImpinjRFPhaseAngle and ImpinjSerializedTID, when decoded, then the phase in degrees and the TID in hex', () => {
    const body = hex(tlv(240, [
      `8D ${EPC96}`,
      '81 0001',
      tlv(1023, `${h32(25882)} ${h32(56)} 0400`), // ImpinjRFPhaseAngle = 1024 of 4096: a quarter turn
      tlv(1023, `${h32(25882)} ${h32(55)} 0006 E2801160 20005A1B 2C3D4E5F`), // ImpinjSerializedTID: 6 words
      tlv(1023, `${h32(9999)} ${h32(56)} 0800`), // another vendor's subtype 56: not a phase
    ].join('')));
    const [read] = decodeTagReads(body);
    expect(read).to.deep.include({ epc: EPC96, phaseAngle: 90, tid: 'E280116020005A1B2C3D4E5F' });
    expect(decodeTagReads(hex(tlv(240, `8D ${EPC96}`)))[0]).to.deep.include({ phaseAngle: null, tid: null });
    // A TID whose word count runs past its parameter is a decode error, not a short TID.
    expect(() => decodeTagReads(hex(tlv(240, `8D ${EPC96} ${tlv(1023, `${h32(25882)} ${h32(55)} 0004 E2801160`)}`)))).to.throw(LlrpDecodeError, /word count/);
  });

  it('given TagReportData with AccessSpecID and the C1G2ReadOpSpecResult of the TID read, when decoded, then the words as the TID; a failed read or another OpSpec gives none', () => {
    const read = (result: string, opSpec: string): Buffer => hex(tlv(240, [
      `8D ${EPC96}`,
      '81 0001',
      '90 00007474', // AccessSpecID (TV 16, 4 bytes)
      tlv(349, `${result} ${opSpec} 0006 E2801160 20005A1B 2C3D4E5F`), // C1G2ReadOpSpecResult: result, OpSpecID, word count, the words
    ].join('')));
    expect(decodeTagReads(read('00', '7469'))[0]).to.deep.include({ epc: EPC96, antennaId: 1, tid: 'E280116020005A1B2C3D4E5F' });
    expect(decodeTagReads(read('03', '7469'))[0]).to.deep.include({ tid: null }); // 3: insufficient power (a failed read)
    expect(decodeTagReads(read('00', '0001'))[0]).to.deep.include({ tid: null }); // someone else's read
    expect(() => decodeTagReads(hex(tlv(240, `8D ${EPC96} ${tlv(349, '00 7469 0004 E2801160')}`)))).to.throw(LlrpDecodeError, /word count/);
  });

  it('given an unknown TV type, when decoded, then a decode error (its length is unknown)', () => {
    const bad = hex(tlv(240, `8D ${EPC96} FF 0001`));
    expect(() => decodeTagReads(bad)).to.throw(LlrpDecodeError, /unknown TV parameter type 127/);
  });

  it('given a TLV whose length runs past its container, when decoded, then a decode error', () => {
    expect(() => decodeTagReads(hex(`00F0 0040 8D ${EPC96}`))).to.throw(LlrpDecodeError);
  });
});

describe('llrp/messages responses and events', () => {
  it('given ADD_ROSPEC_RESPONSE with an error status and a ParameterError, when decoded, then its code, name and description', () => {
    const desc = Buffer.from('TransmitPower index 99 not in table').toString('hex');
    const m = msg(MSG.ADD_ROSPEC_RESPONSE, 5, tlv(287, `0065 ${h16(desc.length / 2)} ${desc} ${tlv(289, '00e0 012d')}`));
    const [framed] = new LlrpFramer().push(m);
    const status = statusOf(framed as never);
    expect(status).to.deep.equal({ code: 101, name: 'M_FieldError', description: 'TransmitPower index 99 not in table (parameter type 224, error A_OutOfRange)' });
  });

  it('given GET_READER_CAPABILITIES_RESPONSE with parameters the table skips, when decoded, then antennas, maker, firmware, power and RF mode tables; ImpinjxArrayCapabilities\' SupportsLISpecs and SupportsDISpecs', () => {
    const fw = Buffer.from('7.6.1').toString('hex');
    const body = [
      tlv(287, '0000 0000'),
      tlv(137, `0004 C000 ${h32(25882)} ${h32(2001002)} 0005 ${fw} ${tlv(139, '0001 0000')} ${tlv(141, '0004 0004')}`),
      tlv(142, '00 00 00000000 0000 00000000'), // LLRPCapabilities: not in the table, skipped by its length
      tlv(143, `0348 0001 ${tlv(144, [tlv(145, '0001 0a28'), tlv(145, '0002 0bb8'), tlv(146, '00'), tlv(328, tlv(329, `000003ea 00 01 02 01 0009c400 000005dc 0000186a 0000186a 00000000`))].join(''))}`),
    ].join('');
    const [m] = new LlrpFramer().push(msg(MSG.GET_READER_CAPABILITIES_RESPONSE, 1, body));
    const { status, capabilities } = decodeCapabilities(m as never);
    expect(status.code).to.equal(0);
    expect(capabilities).to.deep.equal({
      maxAntennas: 4,
      manufacturer: 25882,
      model: 2001002,
      firmware: '7.6.1',
      transmitPower: [{ index: 1, dbm: 26 }, { index: 2, dbm: 30 }],
      rfModes: [1002],
      computesLocations: false,
      computesDirection: false,
    });
    // An xArray adds Impinj's ImpinjxArrayCapabilities (subtype 1521): u32 MaxNumSectors, SupportsLISpecs and SupportsDISpecs bits, 6 reserved.
    const array = (bits: string): object => {
      const [m] = new LlrpFramer().push(msg(MSG.GET_READER_CAPABILITIES_RESPONSE, 2, body + tlv(1023, `${h32(25882)} ${h32(1521)} 00000068 ${bits}`)));
      const c = decodeCapabilities(m as never).capabilities;
      return { locations: c.computesLocations, direction: c.computesDirection };
    };
    expect(array('C0')).to.deep.equal({ locations: true, direction: true }); // 11 000000
    expect(array('40')).to.deep.equal({ locations: false, direction: true }); // 01 000000
    expect(array('80')).to.deep.equal({ locations: true, direction: false }); // 10 000000
  });

  it('given READER_EVENT_NOTIFICATION with ConnectionAttemptEvent, when decoded, then its status and the UTC time', () => {
    const m = msg(MSG.READER_EVENT_NOTIFICATION, 0, tlv(246, `${tlv(128, '0005C0C7F2D41000')}${tlv(256, '0002')}`));
    const [framed] = new LlrpFramer().push(m);
    expect(decodeReaderEvent(framed as never)).to.deep.include({ connectionAttempt: 2, timestampUs: 0x0005c0c7f2d41000, antenna: null });
    const antenna = msg(MSG.READER_EVENT_NOTIFICATION, 0, tlv(246, `${tlv(128, '0005C0C7F2D41000')}${tlv(255, '00 0003')}`));
    expect(decodeReaderEvent(new LlrpFramer().push(antenna)[0] as never).antenna).to.deep.equal({ connected: false, antennaId: 3 });
  });
});

describe('llrp/messages reader temperature (Impinj extension)', () => {
  it('given GET_READER_CONFIG for the temperature, when encoded, then AntennaID 0, RequestedData 0 (all), GPI/GPO 0, ImpinjRequestedData 2004', () => {
    const expected = msg(MSG.GET_READER_CONFIG, 4, `0000 00 0000 0000 ${tlv(1023, `${h32(25882)} ${h32(21)} ${h32(2004)}`)}`);
    expect(getImpinjTemperature(4).toString('hex')).to.equal(expected.toString('hex'));
    expect(asksImpinjTemperature(new LlrpFramer().push(expected)[0] as never)).to.equal(true);
    expect(asksImpinjTemperature(new LlrpFramer().push(msg(MSG.GET_READER_CONFIG, 5, '0000 00 0000 0000'))[0] as never)).to.equal(false);
  });

  it('given GET_READER_CONFIG_RESPONSE with a standard parameter, another vendor\'s and ImpinjReaderTemperature -12, when decoded, then -12 C', () => {
    const m = msg(MSG.GET_READER_CONFIG_RESPONSE, 4, [
      tlv(287, '0000 0000'), // LLRPStatus M_Success, empty description
      tlv(220, '01 00002710'), // KeepaliveSpec (periodic, 10 s): a parameter the answer may carry
      tlv(1023, `${h32(9999)} ${h32(37)} 0029`), // same subtype, another vendor: not a temperature
      tlv(1023, `${h32(25882)} ${h32(37)} FFF4`), // ImpinjReaderTemperature, signed: -12
    ].join(''));
    const [framed] = new LlrpFramer().push(m);
    expect(statusOf(framed as never).code).to.equal(0);
    expect(readerTemperatureOf(framed as never)).to.equal(-12);
    expect(readerTemperatureOf(new LlrpFramer().push(msg(MSG.GET_READER_CONFIG_RESPONSE, 4, tlv(287, '0000 0000')))[0] as never)).to.equal(null);
  });
});

describe('llrp/location (Impinj LLRP extensions for readers that locate tags)', () => {
  const custom = (subtype: number, body: string): string => tlv(1023, `${h32(25882)} ${h32(subtype)} ${body}`);
  const placement = { x: 12.5, y: -3, z: 4, yawDegrees: 90 };

  it('given RO_ACCESS_REPORT with ImpinjExtendedTagInformation, when decoded, then each UPDATE or ENTRY a read at its place in metres; an EXIT none', () => {
    const located = (epc: string, x: string, y: string, type: string): string => custom(1552, [
      tlv(241, `0060 ${epc}`), // EPCData, 96 bits
      custom(1545, `0005C0C7F2D41000 ${x} ${y} 0042 ${type}`), // ImpinjLocationReportData: TimestampUTC, LocXCentimeters, LocYCentimeters, Confidence, Type
    ].join(''));
    const body = hex([
      located(EPC96, '000004E2', 'FFFFFED4', '01'), // x 1250 cm, y -300 cm, UPDATE
      located('300833B2DDD9014000000002', '00000064', '00000000', '00'), // ENTRY at 1 m, 0
      located('300833B2DDD9014000000003', '00000000', '00000000', '02'), // EXIT
    ].join(''));
    const reads = decodeTagReads(body);
    expect(reads.map((r) => [r.epc, r.x, r.y, r.lastSeenUs])).to.deep.equal([
      [EPC96, 12.5, -3, Number(BigInt('0x0005C0C7F2D41000'))],
      ['300833B2DDD9014000000002', 1, 0, Number(BigInt('0x0005C0C7F2D41000'))],
    ]);
    expect(() => decodeTagReads(hex(custom(1552, `${tlv(241, `0060 ${EPC96}`)}${custom(1545, '0005C0C7F2D41000 00000000')}`)))).to.throw(LlrpDecodeError, /shorter than its fields/);
  });

  it('given a location ROSpec, when encoded, then an ImpinjLISpec (1541) where the AISpec would be: ImpinjLocationConfig (1542) and ImpinjC1G2LocationConfig (1543, mode, session); ImpinjLocationReporting (1544) in its ROReportSpec', () => {
    const spec: RoSpec = { roSpecId: 0x7474, startTrigger: 0, durationMs: 0, antennaIds: [0], antennas: [], reportTrigger: 1, reportEveryN: 1, impinjPeakRssi: true, impinjPhase: false, impinjTid: false, location: { modeIndex: 1002, session: 2, reportIntervalSeconds: 1, placement } };
    const m = addRoSpec(5, spec).toString('hex');
    const lispec = custom(1541, [custom(1542, '02 0014'), custom(1543, '03EA 80')].join('')); // motion window 2 s, tag age 20 s; mode 1002, session 2 (10 000000)
    expect(m).to.contain(lispec.toLowerCase());
    // The ROReportSpec (237: trigger 1, N 1) ends with ImpinjLocationReporting (1544): every 1 s; update, entry and exit reports (111 00000).
    expect(m.endsWith(custom(1544, '0001 E0').toLowerCase())).to.equal(true);
    expect(decodeParams(addRoSpec(5, spec).subarray(10))[0]?.params.map((p) => p.type)).to.deep.equal([178, 1023, 237]); // ROBoundarySpec, the LISpec, ROReportSpec: no AISpec (183)
  });

  it('given a location plan, when the reader is configured, then SET_READER_CONFIG: no reset, ImpinjPlacementConfiguration (1540) in cm and degrees, nothing else', () => {
    expect(setLocationConfig(7, { modeIndex: 0, session: 2, reportIntervalSeconds: 1, placement }).toString('hex')).to.equal(
      msg(MSG.SET_READER_CONFIG, 7, ['00', custom(1540, '0190 000004E2 FFFFFED4 005A')].join('')).toString('hex'), // height 400 cm, x 1250, y -300, 90 degrees
    );
  });
});

describe('llrp/messages host requests', () => {
  it('given the TID AccessSpec, when encoded, then ADD_ACCESSSPEC (40) laid out field by field: AccessSpec, null stop trigger, a target matching every tag, C1G2Read of 6 TID words, AccessReportSpec 0', () => {
    const expected = msg(40, 9, tlv(207, [
      '00007474 0000 01 00 00007474', // AccessSpecID, AntennaID 0 (all), ProtocolID 1 (C1G2), CurrentState 0 (disabled), ROSpecID
      tlv(208, '00 0000'), // AccessSpecStopTrigger: null, operation count 0
      tlv(209, [ // AccessCommand
        tlv(338, tlv(339, '60 0000 0000 0000')), // C1G2TagSpec > C1G2TargetTag: MB 1, Match 1 (0110 0000), pointer 0, empty mask, empty data
        tlv(341, '7469 00000000 80 0000 0006'), // C1G2Read: OpSpecID, password 0, MB 2 (10 000000), word pointer 0, 6 words
      ].join('')),
      tlv(239, '00'), // AccessReportSpec: with the RO report
    ].join('')));
    expect(addTidAccessSpec(9, 0x7474).toString('hex')).to.equal(expected.toString('hex'));
    expect(accessSpecCommand(MSG.ENABLE_ACCESSSPEC, 3, 0x7474).toString('hex')).to.equal(msg(42, 3, '00007474').toString('hex'));
  });

  it('given SET_READER_CONFIG, when encoded, then the layout: reset bit, ReaderEventNotificationSpec, KeepaliveSpec(periodic, ms)', () => {
    const m = setReaderConfig(9, { keepaliveMs: 5000 });
    const [framed] = new LlrpFramer().push(m);
    expect(framed?.type).to.equal(MSG.SET_READER_CONFIG);
    expect(framed?.body[0]).to.equal(0);
    const params = decodeParams(framed?.body ?? Buffer.alloc(0), 1);
    expect(params.map((p) => p.type)).to.deep.equal([244, 220]);
    expect(framed?.body.subarray(framed.body.length - 9).toString('hex')).to.equal('00dc0009' + '01' + '00001388');
    expect(readKeepaliveSpec(framed as never)).to.equal(5000);
  });

  it('given a ROSpec, when encoded, then its header fields sit where the layout puts them and it decodes back', () => {
    const spec: RoSpec = {
      roSpecId: 0x1234,
      startTrigger: 0,
      durationMs: 0,
      antennaIds: [1, 2],
      antennas: [1, 2].map((antennaId) => ({ antennaId, transmitPowerIndex: 81, modeIndex: 1002, session: 2, tagPopulation: 32, impinjSearchMode: 2, filter: antennaId === 1 ? { memoryBank: 1, pointer: 32, mask: hex('3008') } : null })),
      reportTrigger: 1,
      reportEveryN: 1,
      impinjPeakRssi: true,
      impinjPhase: false,
      impinjTid: true,
    };
    const m = addRoSpec(3, spec);
    // ROSpec TLV right after the header: type 177, length, ROSpecID, priority 0, state 0 (disabled)
    expect(m.subarray(10, 12).toString('hex')).to.equal('00b1');
    expect(m.readUInt16BE(12)).to.equal(m.length - 10);
    expect(m.subarray(14, 20).toString('hex')).to.equal('00001234' + '00' + '00');
    // ROReportSpec ends with Impinj's TagReportContentSelector (subtype 50) holding EnableSerializedTID (51) then EnablePeakRSSI (53), mode 1.
    const selector = tlv(1023, `${h32(25882)} ${h32(50)} ${tlv(1023, `${h32(25882)} ${h32(51)} 0001`)}${tlv(1023, `${h32(25882)} ${h32(53)} 0001`)}`);
    expect(m.subarray(m.length - hex(selector).length).toString('hex')).to.equal(selector.toLowerCase());
    const [framed] = new LlrpFramer().push(m);
    expect(decodeAddRoSpec(framed as never)).to.deep.equal(spec);
  });
});
