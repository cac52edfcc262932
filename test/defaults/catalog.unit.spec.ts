import { expect } from 'chai';
import { buildFactoryDefaults } from '../../src/defaults/build';
import { MIN_REPORTING_INTERVAL } from '../../src/recipes/references';

describe('factory defaults', () => {
  const d = buildFactoryDefaults();
  const byName = new Map(d.readerConfigurations.map((rc) => [rc.name, rc]));

  it('given the catalog, when built through the create validation, then every default is accepted under the names clients know', () => {
    expect(d.readerConfigurations.map((rc) => rc.name)).to.have.members([
      'IMPINJ_Do_Nothing', 'IMPINJ_Deep_Scan_Inventory', 'IMPINJ_Dense_Reader_Mode_Inventory', 'IMPINJ_Dense_Reader_Mode_Location',
      'IMPINJ_Deep_Scan_Location', 'IMPINJ_Deep_Scan_Inventory_xSpan', 'IMPINJ_Fast_Location', 'IMPINJ_All_Thresholds',
    ]);
    // A recipe of each name but IMPINJ_Do_Nothing, using the configuration of its own name.
    expect(d.recipes.map((r) => r.name)).to.have.members([...byName.keys()].filter((n) => n !== 'IMPINJ_Do_Nothing'));
    for (const r of d.recipes) expect(r.readerConfigurationName, r.name).to.equal(r.name);
  });

  it('given each recipe, then its type matches its configuration operation and its interval suits the reader mode', () => {
    for (const r of d.recipes) {
      const rc = byName.get(r.readerConfigurationName!)!;
      expect(rc.operation, r.name).to.equal(r.type);
      if (rc.operation === 'DO_NOTHING') continue;
      if ('reportingInterval' in r) expect(r.reportingInterval, r.name).to.be.at.least(MIN_REPORTING_INTERVAL[rc.configuration.readerMode]);
    }
  });

  it('given the timed recipes, then they carry the field defaults of the original product', () => {
    const inventory = d.recipes.find((r) => r.name === 'IMPINJ_Deep_Scan_Inventory')!;
    expect(inventory).to.deep.include({ type: 'INVENTORY', tagHeartbeatDuration: 'PT5M', computeWindow: 20, reportingInterval: 5 });
    expect(inventory).to.not.have.property('tagExpiryDuration');
    const location = d.recipes.find((r) => r.name === 'IMPINJ_Fast_Location')!;
    expect(location).to.deep.include({ type: 'LOCATION', minimumMovementInMeters: 1, computeWindow: 10, reportingInterval: 5 });
    const threshold = d.recipes.find((r) => r.name === 'IMPINJ_All_Thresholds')!;
    expect(threshold).to.deep.include({ type: 'THRESHOLD', thresholdIds: [] });
    expect(byName.get('IMPINJ_All_Thresholds')!.configuration).to.deep.include({ readerMode: 'MAX_THROUGHPUT', searchMode: 'DUAL_TARGET_WITH_BTOASELECT' });
  });

  it('given the LOCATION configurations, then they use session 2 (flags persist between rounds)', () => {
    for (const rc of d.readerConfigurations.filter((c) => c.operation === 'LOCATION')) expect(rc.configuration, rc.name).to.deep.include({ session: 2 });
  });

  it('given the antenna configurations, then ids are 1..n, one per arrangement, and in/out never share an antenna', () => {
    expect(d.antennaConfigurations.map((c) => c.id)).to.deep.equal(d.antennaConfigurations.map((_, i) => i + 1));
    expect(new Set(d.antennaConfigurations.map((c) => c.readerArrangement))).to.have.keys('OVERHEAD', 'OVERHEAD_OFFSET', 'SIDE_BY_SIDE');
    expect(d.antennaConfigurations[0]).to.deep.include({ name: 'xArray Overhead', in: [{ antennaId: 13 }], out: [{ antennaId: 17 }] });
    for (const c of d.antennaConfigurations) {
      const ins = new Set(c.in.map((a) => a.antennaId));
      expect(c.out.some((a) => ins.has(a.antennaId)), c.name).to.equal(false);
    }
  });
});
