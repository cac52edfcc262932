// `npm run rebuild -- <readModel>`: which read model the arguments name, and
// the usage text listing every valid name otherwise.
import { expect } from 'chai';
import { chooseReadModel } from '../../scripts/rebuild';

describe('npm run rebuild arguments', () => {
  it('names each read model', () => {
    for (const name of ['config', 'health', 'jobs', 'items']) {
      const chosen = chooseReadModel([name]);
      expect(typeof chosen === 'string' ? chosen : chosen.name).to.equal(name);
    }
  });

  it('an unknown name, none or two: the usage listing the valid names', () => {
    expect(chooseReadModel(['unknown'])).to.equal('unknown read model "unknown"\nusage: npm run rebuild -- <readModel>   (one of: config, health, jobs, items, transitions)\n');
    expect(chooseReadModel([])).to.match(/^give exactly one read model\n.*one of: config, health, jobs, items/);
    expect(chooseReadModel(['items', 'jobs'])).to.match(/^give exactly one read model\n/);
  });
});
