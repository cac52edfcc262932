import { expect } from 'chai';
import { decodeEpc, epcPrefixMatches, formatEpc, isHex, normalizeEpc, upc12FromGtin14, EPC_FORMATS } from '../../src/items/epc';

// Vectors are packed here bit by bit from the TDS layouts (header, filter,
// partition, fields), independently of the decoding library.
type Field = readonly [value: bigint | number | string, bits: number];

function pack(fields: readonly Field[], hexDigits: number): string {
  let v = 0n;
  let bits = 0;
  for (const [value, width] of fields) {
    if (typeof value === 'string') {
      // TDS 7-bit string, zero-padded to the field width
      let s = 0n;
      for (const ch of value) s = (s << 7n) | BigInt(ch.charCodeAt(0));
      s <<= BigInt(width - 7 * value.length);
      v = (v << BigInt(width)) | s;
    } else {
      const n = BigInt(value);
      if (n >= 1n << BigInt(width)) throw new Error(`${n} does not fit ${width} bits`);
      v = (v << BigInt(width)) | n;
    }
    bits += width;
  }
  v <<= BigInt(hexDigits * 4 - bits);
  return v.toString(16).toUpperCase().padStart(hexDigits, '0');
}

/** SGTIN-96 with partition 5 (7-digit company prefix, 6-digit item reference incl. indicator). */
const sgtin96 = (company: number, item: number, serial: number, filter = 3): string =>
  pack([[0x30, 8], [filter, 3], [5, 3], [company, 24], [item, 20], [serial, 38]], 24);

function gs1CheckDigit(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => (sum += Number(d) * (i % 2 === 0 ? 3 : 1)));
  return (10 - (sum % 10)) % 10;
}

describe('EPC formats', () => {
  describe('TDS vectors', () => {
    it('SGTIN-96: urn:epc:id:sgtin:0614141.812345.6789 = 3074257BF7194E4000001A85', () => {
      const hex = '3074257BF7194E4000001A85';
      expect(sgtin96(614141, 812345, 6789)).to.equal(hex);
      expect(formatEpc(hex, 'PURE_ID')).to.equal('urn:epc:id:sgtin:0614141.812345.6789');
      expect(formatEpc(hex, 'TAG')).to.equal('urn:epc:tag:sgtin-96:3.0614141.812345.6789');
      expect(formatEpc(hex, 'RAW')).to.equal(hex);
      expect(formatEpc(hex, 'DEFAULT')).to.equal('urn:epc:id:sgtin:0614141.812345.6789');
      expect(decodeEpc(hex)).to.deep.equal({
        scheme: 'SGTIN-96',
        pureIdentityUri: 'urn:epc:id:sgtin:0614141.812345.6789',
        tagUri: 'urn:epc:tag:sgtin-96:3.0614141.812345.6789',
        gtin14: '80614141123458',
      });
    });

    it('reads any case and keeps the filter in the tag URI only', () => {
      const hex = sgtin96(614141, 812345, 6789, 1);
      expect(formatEpc(hex.toLowerCase(), 'TAG')).to.equal('urn:epc:tag:sgtin-96:1.0614141.812345.6789');
      expect(formatEpc(hex.toLowerCase(), 'PURE_ID')).to.equal('urn:epc:id:sgtin:0614141.812345.6789');
    });

    it('SSCC-96: urn:epc:id:sscc:0614141.1234567890', () => {
      const hex = pack([[0x31, 8], [3, 3], [5, 3], [614141, 24], [1234567890, 34], [0, 24]], 24);
      expect(hex).to.equal('3174257BF4499602D2000000');
      expect(formatEpc(hex, 'PURE_ID')).to.equal('urn:epc:id:sscc:0614141.1234567890');
      expect(formatEpc(hex, 'TAG')).to.equal('urn:epc:tag:sscc-96:3.0614141.1234567890');
      expect(formatEpc(hex, 'UPC12')).to.equal(undefined);
    });

    it('GIAI-96: urn:epc:id:giai:0614141.5678', () => {
      const hex = pack([[0x34, 8], [3, 3], [5, 3], [614141, 24], [5678, 58]], 24);
      expect(hex).to.equal('3474257BF40000000000162E');
      expect(formatEpc(hex, 'PURE_ID')).to.equal('urn:epc:id:giai:0614141.5678');
      expect(formatEpc(hex, 'TAG')).to.equal('urn:epc:tag:giai-96:3.0614141.5678');
    });

    it('SGLN-96, GRAI-96 and GID-96', () => {
      const sgln = pack([[0x32, 8], [3, 3], [5, 3], [614141, 24], [12345, 17], [400, 41]], 24);
      expect(formatEpc(sgln, 'PURE_ID')).to.equal('urn:epc:id:sgln:0614141.12345.400');
      expect(formatEpc(sgln, 'TAG')).to.equal('urn:epc:tag:sgln-96:3.0614141.12345.400');
      const grai = pack([[0x33, 8], [3, 3], [5, 3], [614141, 24], [12345, 20], [5678, 38]], 24);
      expect(formatEpc(grai, 'PURE_ID')).to.equal('urn:epc:id:grai:0614141.12345.5678');
      const gid = pack([[0x35, 8], [95100000, 28], [12345, 24], [400, 36]], 24);
      expect(formatEpc(gid, 'PURE_ID')).to.equal('urn:epc:id:gid:95100000.12345.400');
      expect(formatEpc(gid, 'TAG')).to.equal('urn:epc:tag:gid-96:95100000.12345.400');
    });

    it('SGTIN-198 with an alphanumeric serial, escaped as TDS says, as 52 or 50 hex digits', () => {
      const fields: Field[] = [[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['32a/b', 140]];
      const words = pack(fields, 52); // 208 bits: Gen2 EPC memory is in 16-bit words
      expect(formatEpc(words, 'PURE_ID')).to.equal('urn:epc:id:sgtin:0614141.812345.32a%2Fb');
      expect(formatEpc(words, 'TAG')).to.equal('urn:epc:tag:sgtin-198:3.0614141.812345.32a%2Fb');
      expect(formatEpc(words.slice(0, 50), 'PURE_ID')).to.equal('urn:epc:id:sgtin:0614141.812345.32a%2Fb');
      const dotted = pack([[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['A.b:c%"&<>?', 140]], 52);
      expect(formatEpc(dotted, 'PURE_ID')).to.equal('urn:epc:id:sgtin:0614141.812345.A.b:c%25%22%26%3C%3E%3F');
    });

    it('GIAI-202 with an alphanumeric asset reference', () => {
      // partition 5: 24-bit company prefix, the remaining 164 bits for the asset reference
      const hex = pack([[0x38, 8], [3, 3], [5, 3], [614141, 24], ['12345400', 164]], 52);
      expect(formatEpc(hex, 'PURE_ID')).to.equal('urn:epc:id:giai:0614141.12345400');
      expect(formatEpc(hex, 'TAG')).to.equal('urn:epc:tag:giai-202:3.0614141.12345400');
    });
  });

  describe('EPCs that do not decode', () => {
    const valid = '3074257BF7194E4000001A85';
    const cases: Record<string, string> = {
      'a non-EPC (TID-like) header': 'E2801160600002080000ABCD',
      'a short non-EPC': 'E280116060000208',
      'a truncated SGTIN-96': valid.slice(0, 22),
      'an SGTIN-96 with an extra word': `${valid}0000`,
      'partition 7': pack([[0x30, 8], [3, 3], [7, 3], [0, 82]], 24),
      'a company prefix too long for its partition': pack([[0x30, 8], [3, 3], [5, 3], [9_999_999 + 1, 24], [1, 20], [1, 38]], 24),
      'an item reference too long for its partition': pack([[0x30, 8], [3, 3], [5, 3], [614141, 24], [999_999 + 1, 20], [1, 38]], 24),
      'SSCC-96 with non-zero reserved bits': pack([[0x31, 8], [3, 3], [5, 3], [614141, 24], [1234567890, 34], [1, 24]], 24),
      'SGTIN-198 with non-zero padding': pack([[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['A', 140], [1, 10]], 52),
      'SGTIN-198 with a character after the end of the serial': pack(
        [[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['A', 7], [0, 7], ['B', 126]],
        52,
      ),
      'SGTIN-198 with a character outside set 82': pack([[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['a#b', 140]], 52),
      'SGTIN-198 with an empty serial': pack([[0x36, 8], [3, 3], [5, 3], [614141, 24], [812345, 20], ['', 140]], 52),
      'an odd number of digits': `${valid}0`,
    };
    for (const [name, hex] of Object.entries(cases)) {
      it(`${name}: left out of PURE_ID, TAG and UPC12, RAW for DEFAULT`, () => {
        expect(decodeEpc(hex), hex).to.equal(undefined);
        expect(formatEpc(hex, 'PURE_ID')).to.equal(undefined);
        expect(formatEpc(hex, 'TAG')).to.equal(undefined);
        expect(formatEpc(hex, 'UPC12')).to.equal(undefined);
        expect(formatEpc(hex, 'RAW')).to.equal(hex.toUpperCase());
        expect(formatEpc(hex.toLowerCase(), 'DEFAULT')).to.equal(hex.toUpperCase());
      });
    }

    it('input that is not hex is undefined in every format', () => {
      for (const bad of ['', 'XYZ', '3074 257B', 'urn:epc:id:sgtin:0614141.812345.6789']) {
        for (const f of EPC_FORMATS) expect(formatEpc(bad, f), `${f} ${bad}`).to.equal(undefined);
      }
    });
  });

  describe('UPC12', () => {
    it('is the UPC-A of an SGTIN whose GTIN-14 starts with 00, with a correct check digit', () => {
      // GTIN-14 00012345678905: indicator 0, company prefix 0012345, item reference 0+67890
      const hex = sgtin96(12345, 67890, 1);
      expect(decodeEpc(hex)?.gtin14).to.equal('00012345678905');
      expect(formatEpc(hex, 'UPC12')).to.equal('012345678905');
      const indicatorZero = sgtin96(614141, 12345, 7); // GTIN-14 0 0614141 12345 c
      const upc = formatEpc(indicatorZero, 'UPC12');
      expect(upc).to.match(/^\d{12}$/);
      expect(upc?.slice(0, 11)).to.equal('61414112345');
      expect(Number(upc?.slice(11))).to.equal(gs1CheckDigit('61414112345'));
    });

    it('is undefined when the GTIN-14 does not start with 00', () => {
      expect(formatEpc('3074257BF7194E4000001A85', 'UPC12')).to.equal(undefined); // 80614141123458
      expect(formatEpc(sgtin96(1234567, 12345, 1), 'UPC12')).to.equal(undefined); // 01234567...
    });

    it('upc12FromGtin14 takes only 14 digits starting with 00', () => {
      expect(upc12FromGtin14('00012345678905')).to.equal('012345678905');
      expect(upc12FromGtin14('10012345678902')).to.equal(undefined);
      expect(upc12FromGtin14('0012345678905')).to.equal(undefined);
      expect(upc12FromGtin14('00a12345678905')).to.equal(undefined);
    });
  });

  describe('hex input', () => {
    it('isHex accepts hex digits of either case only', () => {
      expect(isHex('3074abcDEF')).to.equal(true);
      expect(isHex('')).to.equal(false);
      expect(isHex('30 74')).to.equal(false);
      expect(isHex('0x3074')).to.equal(false);
      expect(isHex('G0')).to.equal(false);
    });

    it('normalizeEpc upper-cases hex and refuses the rest', () => {
      expect(normalizeEpc('3074257bf7194e4000001a85')).to.equal('3074257BF7194E4000001A85');
      expect(normalizeEpc('abc')).to.equal('ABC');
      expect(normalizeEpc('urn:epc')).to.equal(undefined);
      expect(normalizeEpc('')).to.equal(undefined);
    });

    it('epcPrefixMatches ignores case, takes odd-length prefixes, and an empty one matches all', () => {
      const epc = '3074257BF7194E4000001A85';
      expect(epcPrefixMatches(epc, '3074')).to.equal(true);
      expect(epcPrefixMatches(epc, '3074257bf')).to.equal(true);
      expect(epcPrefixMatches(epc.toLowerCase(), '3074257BF')).to.equal(true);
      expect(epcPrefixMatches(epc, '')).to.equal(true);
      expect(epcPrefixMatches(epc, epc)).to.equal(true);
      expect(epcPrefixMatches(epc, `${epc}0`)).to.equal(false);
      expect(epcPrefixMatches(epc, '3075')).to.equal(false);
      expect(epcPrefixMatches(epc, '30 74')).to.equal(false);
    });
  });
});
