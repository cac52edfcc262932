// `npm run rebuild -- <readModel>`: which read model the arguments name, and
// the usage text listing every valid name otherwise.
import { expect } from 'chai';
import { chooseReadModel, rebuildSummary } from '../../scripts/rebuild';

describe('npm run rebuild arguments', () => {
  it('names each read model', () => {
    for (const name of ['config', 'health', 'jobs', 'items', 'transitions', 'epcis']) {
      const chosen = chooseReadModel([name]);
      expect(typeof chosen === 'string' ? chosen : chosen.name).to.equal(name);
    }
  });

  it('an unknown name, none or two: the usage listing the valid names', () => {
    expect(chooseReadModel(['unknown'])).to.equal('unknown read model "unknown"\nusage: npm run rebuild -- <readModel>   (one of: config, health, jobs, items, transitions, epcis)\n');
    expect(chooseReadModel([])).to.match(/^give exactly one read model\n.*one of: config, health, jobs, items/);
    expect(chooseReadModel(['items', 'jobs'])).to.match(/^give exactly one read model\n/);
  });
});

describe('npm run rebuild summary line', () => {
  const base = { readModel: 'items', events: 1000, position: 'C:1/P:1', keysSwitched: 15, keysRemoved: 0, attempts: 1, seconds: 9, catchUpSeconds: 8, eventsPerSecond: 125 };

  it('prints the item changes and their rate when the read model counts them', () => {
    const line = rebuildSummary({ ...base, changes: 1_000_000, changesPerSecond: 125_000 });
    expect(line).to.include('1000 events caught up in 8 s, 125 events/s');
    expect(line).to.include('1000000 item changes, 125000 changes/s');
  });

  it('prints only events for a read model without item changes', () => {
    const line = rebuildSummary({ ...base, readModel: 'jobs' });
    expect(line).to.match(/^rebuilt jobs: 1000 events caught up in 8 s, 125 events\/s; switched over after 9 s, 15 keys$/);
  });
});
