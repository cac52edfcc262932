// Every number of the IMPINJ table (src/llrp/constants.ts) against Impinj's
// own LTK definition file, Impinjdef.xml version 1.18 (public in the GitHub
// repository esitarski/pyllrp, xml/Impinjdef-1.18-private.xml). First the table
// as that file gives it (its `subtype` attributes and enumeration entries,
// copied here by hand), then each number inside a frame written byte by byte,
// in hex, which the code must produce or read exactly: a number the table got
// wrong fails both.
import { expect } from 'chai';
import { IMPINJ, IMPINJ_VALUES } from '../../src/llrp/constants';
import { LlrpFramer, type LlrpMessage } from '../../src/llrp/frame';
import { addRoSpec, asksImpinjTemperature, decodeCapabilities, decodeTagReads, getImpinjTemperature, impinjEnableExtensions, readerTemperatureOf, type RoSpec } from '../../src/llrp/messages';
import { setLocationConfig } from '../../src/llrp/location';
import { hex, msg, tlv } from './hand-frames';

const framed = (b: Buffer): LlrpMessage => new LlrpFramer().push(b)[0] as LlrpMessage;
/** A custom parameter (TLV 1023) of Impinj: vendor 25882 (0000651A), then the subtype and its fields, all as written. */
const impinj = (subtypeHex: string, body: string): string => tlv(1023, `0000651A ${subtypeHex} ${body}`);
const EPC = '300833B2DDD9014000000001';

describe('llrp/constants IMPINJ: the numbers of Impinj\'s definition file 1.18', () => {
  it('given the table, then each number is the definition\'s', () => {
    expect(IMPINJ).to.deep.equal({
      VENDOR: 25882, // vendorDefinition Impinj vendorID
      ENABLE_EXTENSIONS: 21, // customMessageDefinition IMPINJ_ENABLE_EXTENSIONS
      RequestedData: 21, // customParameterDefinition ImpinjRequestedData
      InventorySearchMode: 23,
      ReaderTemperature: 37,
      TagReportContentSelector: 50,
      EnableSerializedTID: 51,
      EnableRFPhaseAngle: 52,
      EnablePeakRSSI: 53,
      SerializedTID: 55,
      RFPhaseAngle: 56,
      PeakRSSI: 57,
      xArrayCapabilities: 1521, // ImpinjArrayCapabilities
      PlacementConfiguration: 1540,
      LISpec: 1541,
      LocationConfig: 1542,
      C1G2LocationConfig: 1543,
      LocationReporting: 1544,
      LocationReportData: 1545,
      ExtendedTagInformation: 1552,
    });
    // customEnumerationDefinition ImpinjRequestedDataType (All_Configuration, Impinj_Reader_Temperature), ImpinjLocationReportType (Exit)
    expect(IMPINJ_VALUES).to.deep.equal({ REQUESTED_ALL_CONFIGURATION: 2000, REQUESTED_READER_TEMPERATURE: 2004, LOCATION_EXIT: 2 });
  });

  it('given IMPINJ_ENABLE_EXTENSIONS, when encoded, then CUSTOM_MESSAGE vendor 25882 subtype 21', () => {
    // CUSTOM_MESSAGE (1023): u32 VendorIdentifier, u8 MessageSubtype, then the message's u32 reserved.
    expect(impinjEnableExtensions(3).toString('hex')).to.equal(msg(1023, 3, '0000651A 15 00000000').toString('hex'));
  });

  it('given the temperature asked and answered, when encoded and decoded, then ImpinjRequestedData (21) with 2004, 2000 understood, ImpinjReaderTemperature (37)', () => {
    // GET_READER_CONFIG: AntennaID 0, RequestedData 0, GPIPortNum 0, GPOPortNum 0, ImpinjRequestedData u32 Impinj_Reader_Temperature.
    expect(getImpinjTemperature(4).toString('hex')).to.equal(msg(2, 4, `0000 00 0000 0000 ${impinj('00000015', '000007D4')}`).toString('hex'));
    expect(asksImpinjTemperature(framed(msg(2, 5, `0000 00 0000 0000 ${impinj('00000015', '000007D0')}`)))).to.equal(true); // All_Configuration
    // GET_READER_CONFIG_RESPONSE: LLRPStatus (287: M_Success, empty description), ImpinjReaderTemperature s16 23.
    expect(readerTemperatureOf(framed(msg(12, 4, `${tlv(287, '0000 0000')}${impinj('00000025', '0017')}`)))).to.equal(23);
  });

  it('given an inventory ROSpec on an Impinj reader, when encoded, then InventorySearchMode (23) and the TagReportContentSelector (50) with 51, 52 and 53', () => {
    const spec: RoSpec = {
      roSpecId: 1, startTrigger: 0, durationMs: 0, antennaIds: [1], reportTrigger: 1, reportEveryN: 1, impinjPeakRssi: true, impinjPhase: true, impinjTid: true,
      antennas: [{ antennaId: 1, transmitPowerIndex: null, modeIndex: null, session: null, tagPopulation: null, impinjSearchMode: 2, filter: null }],
    };
    const bytes = addRoSpec(1, spec).toString('hex');
    expect(bytes).to.contain(impinj('00000017', '0002').toLowerCase()); // dual target
    const selector = impinj('00000032', [impinj('00000033', '0001'), impinj('00000034', '0001'), impinj('00000035', '0001')].join('')); // each mode 1, enabled
    expect(bytes).to.contain(selector.toLowerCase());
  });

  it('given TagReportData with ImpinjSerializedTID (55), ImpinjRFPhaseAngle (56) and ImpinjPeakRSSI (57), when decoded, then the TID, the phase and the RSSI', () => {
    const data = tlv(240, [
      `8D ${EPC}`, // EPC-96 (TV 13)
      impinj('00000037', '0002 E280 1160'), // u16v: 2 words
      impinj('00000038', '0400'), // 1024 of 4096: 90 degrees
      impinj('00000039', 'F7E2'), // -2078 hundredths: -20.78 dBm
    ].join(''));
    expect(decodeTagReads(hex(data))).to.deep.include.members([{ epc: EPC, antennaId: null, peakRssi: -20.78, firstSeenUs: null, lastSeenUs: null, seenCount: null, channelIndex: null, phaseAngle: 90, tid: 'E2801160' }]);
  });

  it('given capabilities with ImpinjArrayCapabilities (1521), when decoded, then the reader locates tags and can decide direction', () => {
    // LLRPStatus, then u32 MaxNumSectors 104, u1 SupportsLISpecs 1, u1 SupportsDISpecs 1, 6 reserved.
    const { capabilities } = decodeCapabilities(framed(msg(11, 2, `${tlv(287, '0000 0000')}${impinj('000005F1', '00000068 C0')}`)));
    expect([capabilities.computesLocations, capabilities.computesDirection]).to.deep.equal([true, true]);
  });

  it('given a location plan, when encoded, then ImpinjPlacementConfiguration (1540), ImpinjLISpec (1541) holding 1542 and 1543, ImpinjLocationReporting (1544)', () => {
    const location = { modeIndex: 1002, session: 2, reportIntervalSeconds: 1, placement: { x: 1, y: 2, z: 3, yawDegrees: 0 } };
    expect(setLocationConfig(6, location).toString('hex')).to.contain(impinj('00000604', '012C 00000064 000000C8 0000').toLowerCase()); // height 300 cm, x 100 cm, y 200 cm, 0 degrees
    const spec: RoSpec = { roSpecId: 1, startTrigger: 0, durationMs: 0, antennaIds: [0], antennas: [], reportTrigger: 1, reportEveryN: 1, impinjPeakRssi: false, impinjPhase: false, impinjTid: false, location };
    const rospec = addRoSpec(1, spec).toString('hex');
    // ImpinjLISpec: ImpinjLocationConfig (u8 motion window 2 s, u16 tag age 20 s), ImpinjC1G2LocationConfig (u16 mode 1002, session 2 in the top 2 bits).
    expect(rospec).to.contain(impinj('00000605', impinj('00000606', '02 0014') + impinj('00000607', '03EA 80')).toLowerCase());
    expect(rospec).to.contain(impinj('00000608', '0001 E0').toLowerCase()); // ImpinjLocationReporting: every 1 s; update, entry, exit
  });

  it('given ImpinjExtendedTagInformation (1552) with ImpinjLocationReportData (1545), when decoded, then an UPDATE a read at its place, an EXIT (2) none', () => {
    const located = (type: string): string => impinj('00000610', `${tlv(241, `0060 ${EPC}`)}${impinj('00000609', `0005C0C7F2D41000 000000C8 FFFFFF9C 0050 ${type}`)}`); // EPCData 96 bits; time, x 200 cm, y -100 cm, confidence 80, type
    expect(decodeTagReads(hex(located('01'))).map((r) => [r.epc, r.x, r.y])).to.deep.equal([[EPC, 2, -1]]);
    expect(decodeTagReads(hex(located('02')))).to.deep.equal([]);
  });
});
