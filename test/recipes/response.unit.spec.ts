import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { readerConfigurationFor, referencedReaderConfigurations } from '../../src/recipes/lookup';
import { Recipe } from '../../src/recipes/model';
import { toResponse } from '../../src/recipes/response';
import { validateRecipe } from '../../src/recipes/validate';
import { expectValid } from '../readerconfigurations/helpers';
import { ctx, inventoryRecipe, llrpRecipe, locationRecipe, thresholdRecipe } from './fixtures';

const valid = (input: unknown) => expectValid(validateRecipe(input, ctx));

describe('recipe toResponse', () => {
  it('given a LOCATION recipe with only overrides, then the default is null and unset expiry null', () => {
    const recipe = valid(locationRecipe({ readerConfigurationName: undefined, readerConfigurations: { r1: 'loc' } }));
    expect(toResponse(recipe)).to.deep.equal({
      name: 'loc-recipe',
      type: 'LOCATION',
      readerConfigurationName: null,
      readerConfigurations: { r1: 'loc' },
      tagHeartbeatDuration: 'PT5M',
      tagExpiryDuration: null,
      minimumMovementInMeters: 1,
      computeWindow: 10,
      reportingInterval: 5,
    });
  });

  it('given an INVENTORY recipe without overrides, then readerConfigurations is an empty object', () => {
    expect(toResponse(valid(inventoryRecipe({ tagExpiryDuration: 'PT1H' })))).to.deep.equal({
      name: 'inv-recipe',
      type: 'INVENTORY',
      readerConfigurationName: 'inv',
      readerConfigurations: {},
      tagHeartbeatDuration: 'PT5M',
      tagExpiryDuration: 'PT1H',
      computeWindow: 20,
      reportingInterval: 5,
      locationAggregationModel: null,
    });
  });

  it('given a THRESHOLD recipe, then profile null and thresholdIds an array', () => {
    expect(toResponse(valid(thresholdRecipe()))).to.deep.equal({
      name: 'thr-recipe',
      type: 'THRESHOLD',
      readerConfigurationName: 'thr',
      readerConfigurations: {},
      thresholdIds: [],
      profile: null,
      iterationDataLogEnabled: false,
      transitionParameters: null,
    });
  });

  it('given an LLRP recipe, then every LLRP field is present, unset ones null', () => {
    expect(toResponse(valid(llrpRecipe({ zoneModel: 'GATEWAY' })))).to.deep.equal({
      name: 'llrp-recipe',
      type: 'LLRP',
      readerConfigurationName: 'normal',
      readerConfigurations: {},
      presencePipelineEnabled: null,
      locationReportingEnabled: true,
      zoneModel: 'GATEWAY',
      locationUpdateIntervalInSeconds: null,
      historyWindowSizeInCycles: null,
      computeWindowSizeInCycles: null,
      computeWindowTimeInSeconds: null,
      locationAggregationModel: null,
    });
  });

  it('given a recipe saved with tagHeartbeatMinutes, then the response carries only tagHeartbeatDuration', () => {
    const response = toResponse(valid(inventoryRecipe({ tagHeartbeatMinutes: 2 })));
    expect(response).to.include({ tagHeartbeatDuration: 'PT2M' });
    expect(response).to.not.have.property('tagHeartbeatMinutes');
  });

  it('given a response sent back as a request, then it validates to the same stored recipe', () => {
    const bodies = [
      locationRecipe({ tagExpiryDuration: 'PT2M', readerConfigurations: { r1: 'off' }, minimumMovementInMeters: 0.5 }),
      inventoryRecipe({ tagHeartbeatMinutes: 3, locationAggregationModel: 'BY_TIME' }),
      thresholdRecipe({ thresholdIds: [4], profile: 'p' }),
      llrpRecipe({ computeWindowTimeInSeconds: 3 }),
    ];
    for (const body of bodies) {
      const stored = valid(body);
      expect(valid(toResponse(stored))).to.deep.equal(stored);
    }
  });

  it('given a stored recipe, then the stored codec (the event data codec) accepts it', () => {
    for (const body of [locationRecipe(), inventoryRecipe(), thresholdRecipe(), llrpRecipe()]) {
      expect(isRight(Recipe.decode(valid(body)))).to.equal(true);
    }
  });
});

describe('readerConfigurationFor and referencedReaderConfigurations', () => {
  const recipe = valid(inventoryRecipe({ readerConfigurations: { r1: 'off', r2: 'inv-DUAL_TARGET' } }));

  it('given a reader with an override, then the override wins', () => {
    expect(readerConfigurationFor(recipe, 'r1')).to.equal('off');
    expect(readerConfigurationFor(recipe, 'r2')).to.equal('inv-DUAL_TARGET');
  });

  it('given a reader without an override, then the default applies', () => {
    expect(readerConfigurationFor(recipe, 'xarray-1')).to.equal('inv');
    expect(readerConfigurationFor(recipe, 'constructor')).to.equal('inv');
  });

  it('given no default and no override for the reader, then undefined', () => {
    const onlyOverrides = valid(inventoryRecipe({ readerConfigurationName: undefined, readerConfigurations: { r1: 'inv' } }));
    expect(readerConfigurationFor(onlyOverrides, 'r2')).to.equal(undefined);
    expect(readerConfigurationFor(onlyOverrides, 'toString')).to.equal(undefined);
  });

  it('given a recipe, then every configuration it names is referenced once', () => {
    expect([...referencedReaderConfigurations(recipe)]).to.have.members(['inv', 'off', 'inv-DUAL_TARGET']);
  });
});
