import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeScenario, parseScenario, ScenarioError } from '../../src/simulator/scenario';

const minimal = () => ({
  zones: [{ name: 'A', points: [{ x: 0, y: 0 }, { x: 5, y: 5 }] }],
  readers: [{ name: 'r1', family: 'XARRAY', placement: { x: 2, y: 2 } }],
  tags: [{ epc: 'E200AA' }],
  timeline: [{ epc: 'E200AA', at: 0, zone: 'A' }, { epc: 'e200aa', at: 9, leave: true }] as unknown[],
});

function errorsOf(doc: unknown): Array<{ path: string; reason: string }> {
  try {
    decodeScenario(doc);
  } catch (err) {
    expect(err).to.be.instanceOf(ScenarioError);
    return [...(err as ScenarioError).errors];
  }
  throw new Error('expected a ScenarioError');
}

describe('simulator scenario files', () => {
  it('decodes the shipped example (examples/scenarios/demo.json)', () => {
    const s = parseScenario(readFileSync(join(__dirname, '../../examples/scenarios/demo.json'), 'utf8'));
    expect(s.layout.readers.map((r) => r.family)).to.deep.equal(['XPORTAL', 'XARRAY', 'XARRAY', 'XSPAN', 'SPEEDWAY']);
    expect(s.layout.readers[4]!.antennas).to.have.length(2);
    expect(s.layout.readers[1]!.antennas).to.have.length(52);
    expect(s.layout.zoneMapName).to.equal('demo-store');
    expect(s.durationSeconds).to.equal(120);
    expect(s.faults).to.have.length(2);
  });

  it('decodes a minimal scenario with defaults (facility, floor, antennas) and upper-cases EPCs', () => {
    const s = decodeScenario(minimal(), { facility: 'F1' });
    expect(s.layout.facility).to.equal('F1');
    expect(s.layout.zones[0]!.floor).to.equal(null);
    expect(s.moves).to.deep.equal([{ epc: 'E200AA', at: 0, zone: 'A' }, { epc: 'E200AA', at: 9, leave: true }]);
  });

  it('names the field of a shape error', () => {
    const doc = minimal();
    (doc.readers[0] as Record<string, unknown>)['family'] = 'R700';
    (doc.zones[0]!.points as unknown[]).pop();
    doc.tags[0]!.epc = 'XYZ';
    doc.timeline.push({ epc: 'E200AA', at: -1, zone: 'A' });
    const paths = errorsOf(doc).map((e) => e.path);
    expect(paths).to.include('readers.0.family');
    expect(paths).to.include('zones.0.points');
    expect(paths).to.include('tags.0.epc');
    expect(paths.some((p) => p.startsWith('timeline.2'))).to.equal(true);
  });

  it('names unknown zones, tags and readers in the timeline and faults, and duplicates', () => {
    const doc = { ...minimal(), faults: [{ reader: 'nobody', at: 1, fault: 'restart' }] };
    doc.timeline.push({ epc: 'E200AA', at: 3, zone: 'Nowhere' }, { epc: 'E200BB', at: 4, zone: 'A' });
    doc.tags.push({ epc: 'e200aa' });
    const errors = errorsOf(doc);
    expect(errors).to.deep.include({ path: 'timeline.2.zone', reason: 'no zone named "Nowhere" in zones' });
    expect(errors).to.deep.include({ path: 'timeline.3.epc', reason: 'no tag with EPC E200BB in tags' });
    expect(errors).to.deep.include({ path: 'faults.0.reader', reason: 'no reader named "nobody" in readers' });
    expect(errors).to.deep.include({ path: 'tags.1.epc', reason: 'duplicate EPC E200AA' });
  });

  it('places a tag at a given point of its zone; refuses x without y and a point outside the zone named', () => {
    const doc = minimal();
    doc.timeline.push({ epc: 'E200AA', at: 12, zone: 'A', x: 1.5, y: 4 });
    expect(decodeScenario(doc).moves[2]).to.deep.equal({ epc: 'E200AA', at: 12, zone: 'A', x: 1.5, y: 4 });
    doc.timeline.push({ epc: 'E200AA', at: 13, zone: 'A', x: 1 }, { epc: 'E200AA', at: 14, zone: 'A', x: 6, y: 1 });
    expect(errorsOf(doc)).to.deep.equal([
      { path: 'timeline.3.y', reason: 'x and y go together: give both or neither' },
      { path: 'timeline.4', reason: 'point (6, 1) is not inside zone "A"' },
    ]);
  });

  it('reports bad JSON and a missing section', () => {
    expect(() => parseScenario('{')).to.throw(ScenarioError, /not valid JSON/);
    const { timeline: _t, ...noTimeline } = minimal();
    expect(errorsOf(noTimeline).map((e) => e.path)).to.deep.equal(['timeline']);
  });
});
