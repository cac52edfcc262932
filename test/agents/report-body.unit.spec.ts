// The quick reading of a tag report body (src/agents/report-body.ts): what it
// takes it turns into exactly the columns the general way (shape check,
// TagReportBody, normaliseReport) stores; everything else it leaves to the
// general way, so no answer to a bad body changes.
import { expect } from 'chai';
import { isLeft } from 'fp-ts/Either';
import { normaliseReport, TagReportBody } from '../../src/agents/codecs';
import { columnReportOf, type ColumnReport } from '../../src/agents/gateway';
import { quickReport } from '../../src/agents/report-body';
import { parseJsonBody } from '../../src/core/http/body';
import { mulberry32 } from '../../src/simulator/prng';

/** The general way's stored form, or undefined when it answers 400. */
function general(text: string): ColumnReport | undefined {
  let body: unknown;
  try {
    body = parseJsonBody(text);
  } catch {
    return undefined;
  }
  const decoded = TagReportBody.decode(body);
  if (isLeft(decoded)) return undefined;
  const { report, errors } = normaliseReport(decoded.right);
  return errors.length > 0 ? undefined : columnReportOf(report);
}

/** The quick reading of a body text (undefined also when it is no JSON: the general way refuses it). */
function quick(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return quickReport(value);
}

/** Same data, compared through JSON (what is appended), so -0 and 0 count as one. */
const stored = (r: ColumnReport | undefined): unknown => (r === undefined ? undefined : JSON.parse(JSON.stringify(r)));

const REPORT_ID = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';

function observation(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    epc: `e2801160600002${String(i).padStart(10, '0')}`,
    antennaId: 1 + (i % 4),
    peakRssi: -52.25 - i / 10,
    readCount: 1 + (i % 7),
    firstSeen: `2026-11-29T10:00:0${i % 3}.${String(i % 1000).padStart(3, '0')}Z`,
    lastSeen: `2026-11-29T10:00:0${3 + (i % 3)}.${String((i * 7) % 1000).padStart(3, '0')}Z`,
    ...over,
  };
}

function body(observations: Array<Record<string, unknown>>, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { reportId: REPORT_ID, jobId: 'job-1', from: '2026-11-29T10:00:00.000Z', to: '2026-11-29T10:00:06.000Z', observations, ...over };
}

describe('tag report body, quick reading', () => {
  it('stores what the general way stores: canonical bodies, tid and x/y, nulls, key order, whitespace', () => {
    const cases: Array<Record<string, unknown>> = [
      body([observation(0), observation(1)]),
      body([]),
      body([observation(0, { tid: 'e2003412abcd', x: 1.5, y: -2 }), observation(1, { tid: null, x: null, y: null }), observation(2, { x: 0 })]),
      body([observation(3, { peakRssi: -0, readCount: 12345678901 })]),
      // Key order of the report and of an observation is the sender's.
      { observations: [{ lastSeen: '2026-11-29T10:00:05.000Z', firstSeen: '2026-11-29T10:00:01.000Z', readCount: 2, peakRssi: -60, antennaId: 1001, epc: 'ABCDEF' }], to: '2026-11-29T10:00:06.000Z', from: '2026-11-29T10:00:00.000Z', jobId: 'j', reportId: REPORT_ID },
      // Timestamps in other forms IsoTimestamp takes.
      body([observation(0, { firstSeen: '2026-11-29T10:00:01Z', lastSeen: '2026-11-29T12:00:01.5+02:00' })], { from: '2026-11-29T09:59:59.999Z' }),
    ];
    for (const value of cases) {
      for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), ` \r\n${JSON.stringify(value, null, '\t')}\n `]) {
        const scanned = quick(text);
        expect(scanned, text.slice(0, 120)).to.not.equal(undefined);
        expect(stored(scanned?.report)).to.deep.equal(stored(general(text)));
      }
    }
  });

  it('takes what JSON.parse made of escapes, repeated fields and other text as the general way does', () => {
    const base = JSON.stringify(body([observation(0)]));
    for (const text of [
      base.replace('"job-1"', '"job\\u002d1"'),
      base.replace('"jobId":"job-1"', '"jobId":"a","jobId":"job-1"'),
      base.replace('"antennaId":1', '"antennaId":7,"antennaId":1'),
      base.replace('"job-1"', '"jöb ✓"'),
      base.replace('"epc":"', '"epc":"\\u0041'),
    ]) {
      expect(stored(quick(text)?.report), text.slice(0, 120)).to.deep.equal(stored(general(text)));
      expect(general(text), text.slice(0, 120)).to.not.equal(undefined);
    }
  });

  it('reads numbers as JSON.parse does: fractions, exponents, long mantissas', () => {
    const rng = mulberry32(7);
    const numbers = ['-52.5', '-0.1', '0.30000000000000004', '-70.123456789012345', '1e1', '-5.5E-1', '123456789012345678', '-0', '0.000001', '-99.99'];
    for (let k = 0; k < 200; k++) numbers.push(String(-(rng() * 100)), (rng() * 1e6).toFixed(Math.floor(rng() * 12)));
    for (const n of numbers) {
      const text = `{"reportId":"${REPORT_ID}","jobId":"j","from":"2026-11-29T10:00:00.000Z","to":"2026-11-29T10:00:06.000Z","observations":[{"epc":"AB","antennaId":2,"peakRssi":${n},"readCount":1,"firstSeen":"2026-11-29T10:00:01.000Z","lastSeen":"2026-11-29T10:00:01.000Z","x":${n}}]}`;
      const scanned = quick(text);
      expect(scanned, n).to.not.equal(undefined);
      expect(Object.is(scanned?.report.columns.peakRssi[0], JSON.parse(n)), n).to.equal(true);
      expect(stored(scanned?.report)).to.deep.equal(stored(general(text)));
    }
  });

  it('leaves to the general way what it does not take, whether that is accepted or refused there', () => {
    const base = JSON.stringify(body([observation(0)]));
    const left: Array<[string, string, 'accepted' | 'refused']> = [
      ['an unknown field of the report', JSON.stringify(body([observation(0)], { note: 'x' })), 'accepted'],
      ['an unknown field of an observation', JSON.stringify(body([observation(0, { phaseAngle: 12 })])), 'accepted'],
      ['a control character in the job id', base.replace('"job-1"', '"job\\u0001"'), 'refused'],
      ['a lone surrogate in the job id', base.replace('"job-1"', '"job\\ud800"'), 'refused'],
      ['an observation that is an array', base.replace('"observations":[{', '"observations":[[],{'), 'refused'],
      ['a missing field', JSON.stringify({ ...body([observation(0)]), to: undefined }), 'refused'],
      ['an EPC that is not hex', JSON.stringify(body([observation(0, { epc: 'XYZ' })])), 'refused'],
      ['an empty EPC', JSON.stringify(body([observation(0, { epc: '' })])), 'refused'],
      ['an antenna id out of range', JSON.stringify(body([observation(0, { antennaId: 53 })])), 'refused'],
      ['a read count of 0', JSON.stringify(body([observation(0, { readCount: 0 })])), 'refused'],
      ['a fractional read count', JSON.stringify(body([observation(0, { readCount: 1.5 })])), 'refused'],
      ['firstSeen after lastSeen', JSON.stringify(body([observation(0, { firstSeen: '2026-11-29T10:00:05.000Z', lastSeen: '2026-11-29T10:00:04.000Z' })])), 'refused'],
      ['from after to', JSON.stringify(body([observation(0)], { from: '2026-11-29T10:00:07.000Z' })), 'refused'],
      ['a timestamp that is not one', JSON.stringify(body([observation(0, { lastSeen: 'yesterday' })])), 'refused'],
      ['a reportId that is not a UUID', JSON.stringify(body([observation(0)], { reportId: 'r1' })), 'refused'],
      ['a blank jobId', JSON.stringify(body([observation(0)], { jobId: ' ' })), 'refused'],
      ['a string where a number goes', JSON.stringify(body([observation(0, { peakRssi: '-50' })])), 'refused'],
      ['a number over a double', base.replace('"antennaId":1', '"antennaId":1,"x":1e400'), 'refused'],
      ['a leading zero', base.replace('"antennaId":1', '"antennaId":01'), 'refused'],
      ['a bare minus', base.replace('"antennaId":1', '"antennaId":-'), 'refused'],
      ['a trailing comma', base.replace(']}', '],}'), 'refused'],
      ['something after the body', `${base} {}`, 'refused'],
      ['a cut body', base.slice(0, -10), 'refused'],
      ['a __proto__ key', base.replace('{"reportId"', '{"__proto__":{},"reportId"'), 'refused'],
      ['an array', `[${base}]`, 'refused'],
    ];
    for (const [label, text, outcome] of left) {
      expect(quick(text), label).to.equal(undefined);
      expect(general(text) === undefined ? 'refused' : 'accepted', label).to.equal(outcome);
    }
  });
});
