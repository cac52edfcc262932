import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { RecipeBody } from '../../src/recipes/codec';
import { validateRecipe } from '../../src/recipes/validate';
import { errorPaths, expectInvalid, expectValid } from '../readerconfigurations/helpers';
import { ctx, inventoryRecipe, llrpRecipe, locationRecipe, thresholdRecipe } from './fixtures';

const validate = (input: unknown) => validateRecipe(input, ctx);
type Body = (fields?: Record<string, unknown>) => Record<string, unknown>;

describe('validateRecipe: document', () => {
  it('given a body that is no object, then 400 at body', () => {
    expectInvalid(validate([]), 'body');
  });

  it('given no name or a blank one, then 400 at body.name', () => {
    expectInvalid(validate(inventoryRecipe({ name: undefined })), 'body.name', /is required/);
    expectInvalid(validate(inventoryRecipe({ name: '' })), 'body.name', /not be empty/);
  });

  it('given an unknown or missing type, then 400 at body.type', () => {
    expectInvalid(validate(inventoryRecipe({ type: 'DOCK_DOOR' })), 'body.type', /"THRESHOLD"/);
    expectInvalid(validate(inventoryRecipe({ type: undefined })), 'body.type', /is required/);
  });

  it('given each type with a matching configuration, then it is valid', () => {
    for (const body of [inventoryRecipe(), locationRecipe(), thresholdRecipe(), llrpRecipe()]) {
      expect(expectValid(validate(body)).type).to.equal(body.type);
    }
  });

  it('given unknown fields, then they are ignored and not stored', () => {
    const recipe = expectValid(validate(inventoryRecipe({ colour: 'blue', presenceConfidence: 'HIGH' })));
    expect(recipe).to.not.have.any.keys('colour', 'presenceConfidence');
  });

  it('given a body already decoded by RecipeBody (as the route factory does), then the result is the same', () => {
    const body = locationRecipe({ tagHeartbeatDuration: 'PT2M', tagExpiryDuration: 600, extra: 1 });
    const decoded = RecipeBody.decode(body);
    if (!isRight(decoded)) throw new Error('body should decode');
    expect(decoded.right).to.not.have.property('extra');
    expect(expectValid(validate(decoded.right))).to.deep.equal(expectValid(validate(body)));
    expect(expectValid(validate(body))).to.include({ tagHeartbeatDuration: 'PT2M', tagExpiryDuration: 'PT10M' });
  });

  it('given several problems, then one 400 lists them all', () => {
    const body = inventoryRecipe({ readerConfigurationName: 'nope', reportingInterval: 0, minimumMovementInMeters: 1 });
    expect(errorPaths(validate(body))).to.have.members([
      'body.readerConfigurationName',
      'body.reportingInterval',
      'body.minimumMovementInMeters',
    ]);
  });
});

describe('validateRecipe: fields of the recipe type', () => {
  const cases: Array<[string, unknown, Body, RegExp]> = [
    ['minimumMovementInMeters', 1, inventoryRecipe, /only to LOCATION recipes, not INVENTORY/],
    ['thresholdIds', [1], locationRecipe, /only to THRESHOLD recipes, not LOCATION/],
    ['profile', 'p', inventoryRecipe, /only to THRESHOLD/],
    ['iterationDataLogEnabled', true, locationRecipe, /only to THRESHOLD/],
    ['reportingInterval', 5, thresholdRecipe, /only to LOCATION or INVENTORY recipes, not THRESHOLD/],
    ['computeWindow', 20, llrpRecipe, /not LLRP/],
    ['tagHeartbeatDuration', 'PT5M', thresholdRecipe, /only to LOCATION or INVENTORY/],
    ['tagHeartbeatMinutes', 5, llrpRecipe, /only to LOCATION or INVENTORY/],
    ['tagExpiryDuration', 'PT10M', thresholdRecipe, /only to LOCATION or INVENTORY/],
    ['zoneModel', 'GATEWAY', locationRecipe, /only to LLRP recipes/],
    ['presencePipelineEnabled', true, inventoryRecipe, /only to LLRP/],
    ['locationAggregationModel', 'BY_TIME', locationRecipe, /only to INVENTORY or LLRP recipes, not LOCATION/],
  ];
  for (const [field, value, body, reason] of cases) {
    it(`given ${field} on a ${String(body().type)} recipe, then 400 at body.${field}`, () => {
      expectInvalid(validate(body({ [field]: value })), `body.${field}`, reason);
    });
  }

  it('given fields of another type set to null, then they count as not set', () => {
    expectValid(validate(inventoryRecipe({ minimumMovementInMeters: null, thresholdIds: null, zoneModel: null })));
  });

  it('given locationAggregationModel on INVENTORY (the Java client always sends it), then it is kept', () => {
    expect(expectValid(validate(inventoryRecipe({ locationAggregationModel: 'BY_TIME' })))).to.include({
      locationAggregationModel: 'BY_TIME',
    });
  });
});

describe('validateRecipe: reader configuration references', () => {
  it('given neither readerConfigurationName nor readerConfigurations, then 400 at body.readerConfigurationName', () => {
    const reason = /required unless readerConfigurations/;
    expectInvalid(validate(inventoryRecipe({ readerConfigurationName: undefined })), 'body.readerConfigurationName', reason);
    expectInvalid(validate(inventoryRecipe({ readerConfigurationName: null, readerConfigurations: null })), 'body.readerConfigurationName');
    expectInvalid(validate(inventoryRecipe({ readerConfigurationName: undefined, readerConfigurations: {} })), 'body.readerConfigurationName');
  });

  it('given only readerConfigurations, then valid without a default', () => {
    const recipe = expectValid(validate(inventoryRecipe({ readerConfigurationName: undefined, readerConfigurations: { r1: 'inv' } })));
    expect(recipe).to.not.have.property('readerConfigurationName');
    expect(recipe.readerConfigurations).to.deep.equal({ r1: 'inv' });
  });

  it('given both, then both are stored', () => {
    const recipe = expectValid(validate(inventoryRecipe({ readerConfigurations: { r1: 'off', r2: 'inv-DUAL_TARGET' } })));
    expect(recipe).to.deep.include({ readerConfigurationName: 'inv', readerConfigurations: { r1: 'off', r2: 'inv-DUAL_TARGET' } });
  });

  it('given a default that does not exist, then 400 at body.readerConfigurationName', () => {
    expectInvalid(validate(inventoryRecipe({ readerConfigurationName: 'ghost' })), 'body.readerConfigurationName', /no reader configuration named 'ghost'/);
  });

  it('given an override naming a missing configuration, then 400 at body.readerConfigurations.<reader>', () => {
    expectInvalid(validate(inventoryRecipe({ readerConfigurations: { r1: 'ghost' } })), 'body.readerConfigurations.r1', /no reader configuration named 'ghost'/);
  });

  it('given an override for an unknown reader, then 400 at body.readerConfigurations.<reader>', () => {
    expectInvalid(validate(inventoryRecipe({ readerConfigurations: { r9: 'inv' } })), 'body.readerConfigurations.r9', /no reader definition named 'r9'/);
  });

  it('given a blank configuration name in an override, then 400 at that reader', () => {
    expectInvalid(validate(inventoryRecipe({ readerConfigurations: { r1: '' } })), 'body.readerConfigurations.r1', /not be empty/);
  });
});

describe('validateRecipe: operation rule (Errors 8)', () => {
  const pairs: Array<[Body, string, string]> = [
    [inventoryRecipe, 'inv', 'loc'],
    [locationRecipe, 'loc', 'inv'],
    [thresholdRecipe, 'thr', 'inv'],
    [llrpRecipe, 'normal', 'thr'],
  ];
  for (const [body, matching, wrong] of pairs) {
    const type = String(body().type);
    it(`given a ${type} recipe, then its operation or DO_NOTHING is accepted for the default and overrides`, () => {
      expectValid(validate(body({ readerConfigurationName: matching, readerConfigurations: { r1: 'off', r2: matching } })));
      expectValid(validate(body({ readerConfigurationName: 'off' })));
    });

    it(`given a ${type} recipe with a configuration of another operation, then 400 at the naming field`, () => {
      expectInvalid(validate(body({ readerConfigurationName: wrong })), 'body.readerConfigurationName', new RegExp(`a ${type} recipe needs`));
      expectInvalid(validate(body({ readerConfigurations: { xarray: wrong, 'xarray-1': wrong } })), 'body.readerConfigurations.xarray-1', /has operation/);
    });
  }

  it('given an LLRP recipe, then its operation is the deprecated NORMAL', () => {
    expectInvalid(validate(llrpRecipe({ readerConfigurationName: 'thr' })), 'body.readerConfigurationName', /needs NORMAL or DO_NOTHING/);
  });
});
