import { expect } from 'chai';
import { validateRecipe } from '../../src/recipes/validate';
import { expectInvalid, expectValid } from '../readerconfigurations/helpers';
import { ctx, inventoryRecipe, llrpRecipe, locationRecipe, thresholdRecipe } from './fixtures';

const validate = (input: unknown) => validateRecipe(input, ctx);

describe('validateRecipe: defaults', () => {
  it('given a minimal INVENTORY recipe, then PT5M heartbeat, no expiry, computeWindow 20, reportingInterval 5', () => {
    expect(expectValid(validate(inventoryRecipe()))).to.deep.equal({
      name: 'inv-recipe',
      type: 'INVENTORY',
      readerConfigurationName: 'inv',
      readerConfigurations: {},
      tagHeartbeatDuration: 'PT5M',
      computeWindow: 20,
      reportingInterval: 5,
    });
  });

  it('given a minimal LOCATION recipe, then PT5M heartbeat, movement 1, computeWindow 10, reportingInterval 5', () => {
    expect(expectValid(validate(locationRecipe()))).to.deep.equal({
      name: 'loc-recipe',
      type: 'LOCATION',
      readerConfigurationName: 'loc',
      readerConfigurations: {},
      tagHeartbeatDuration: 'PT5M',
      minimumMovementInMeters: 1,
      computeWindow: 10,
      reportingInterval: 5,
    });
  });

  it('given a minimal THRESHOLD recipe, then thresholdIds [], no profile, iteration data log off', () => {
    expect(expectValid(validate(thresholdRecipe()))).to.deep.include({ thresholdIds: [], iterationDataLogEnabled: false });
    expect(expectValid(validate(thresholdRecipe()))).to.not.have.property('profile');
    expect(expectValid(validate(thresholdRecipe({ thresholdIds: null })))).to.deep.include({ thresholdIds: [] });
  });

  it('given THRESHOLD fields, then they are kept and duplicate threshold ids dropped', () => {
    const recipe = expectValid(validate(thresholdRecipe({ thresholdIds: [3, 1, 3], profile: 'fast', iterationDataLogEnabled: true })));
    expect(recipe).to.deep.include({ thresholdIds: [3, 1], profile: 'fast', iterationDataLogEnabled: true });
    expectInvalid(validate(thresholdRecipe({ thresholdIds: [1.5] })), 'body.thresholdIds.0', /integer/);
  });

  it('given a minimal LLRP recipe, then location reporting on and the GEOGRAPHIC zone model; given fields kept', () => {
    expect(expectValid(validate(llrpRecipe()))).to.deep.include({ locationReportingEnabled: true, zoneModel: 'GEOGRAPHIC' });
    const fields = {
      presencePipelineEnabled: true,
      locationReportingEnabled: false,
      zoneModel: 'GATEWAY',
      locationUpdateIntervalInSeconds: 2,
      historyWindowSizeInCycles: 10,
      computeWindowSizeInCycles: 4,
      computeWindowTimeInSeconds: 1.5,
      locationAggregationModel: 'BY_CYCLES',
    };
    expect(expectValid(validate(llrpRecipe(fields)))).to.deep.include(fields);
    expectInvalid(validate(llrpRecipe({ historyWindowSizeInCycles: -1 })), 'body.historyWindowSizeInCycles', />= 0/);
    expectInvalid(validate(llrpRecipe({ zoneModel: 'FLOOR' })), 'body.zoneModel');
  });

  it('given a reporting interval above the default compute window and no computeWindow, then the window follows the interval', () => {
    expect(expectValid(validate(inventoryRecipe({ reportingInterval: 30 })))).to.include({ computeWindow: 30 });
    expect(expectValid(validate(locationRecipe({ reportingInterval: 12 })))).to.include({ computeWindow: 12 });
    expect(expectValid(validate(locationRecipe({ reportingInterval: 6 })))).to.include({ computeWindow: 10 });
  });
});

describe('validateRecipe: tag heartbeat (Errors 1, minimum PT1M)', () => {
  it('given tagHeartbeatMinutes and tagHeartbeatDuration together, then 400 at body.tagHeartbeatMinutes', () => {
    const body = inventoryRecipe({ tagHeartbeatMinutes: 5, tagHeartbeatDuration: 'PT5M' });
    expectInvalid(validate(body), 'body.tagHeartbeatMinutes', /together with tagHeartbeatDuration/);
  });

  it('given the deprecated tagHeartbeatMinutes, then it is stored as tagHeartbeatDuration', () => {
    const recipe = expectValid(validate(locationRecipe({ tagHeartbeatMinutes: 10 })));
    expect(recipe).to.include({ tagHeartbeatDuration: 'PT10M' });
    expect(recipe).to.not.have.property('tagHeartbeatMinutes');
    expect(expectValid(validate(inventoryRecipe({ tagHeartbeatMinutes: 90 })))).to.include({ tagHeartbeatDuration: 'PT1H30M' });
  });

  it('given tagHeartbeatMinutes below 1 or fractional, then 400 at body.tagHeartbeatMinutes', () => {
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatMinutes: 0 })), 'body.tagHeartbeatMinutes', />= 1/);
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatMinutes: 1.5 })), 'body.tagHeartbeatMinutes');
  });

  it('given tagHeartbeatDuration PT1M or longer, then stored in canonical form', () => {
    expect(expectValid(validate(inventoryRecipe({ tagHeartbeatDuration: 'PT1M' })))).to.include({ tagHeartbeatDuration: 'PT1M' });
    expect(expectValid(validate(inventoryRecipe({ tagHeartbeatDuration: 'PT60S' })))).to.include({ tagHeartbeatDuration: 'PT1M' });
    expect(expectValid(validate(inventoryRecipe({ tagHeartbeatDuration: 'P1DT2H' })))).to.include({ tagHeartbeatDuration: 'P1DT2H' });
  });

  it('given tagHeartbeatDuration below PT1M, then 400 at body.tagHeartbeatDuration', () => {
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: 'PT59S' })), 'body.tagHeartbeatDuration', /at least PT1M, got PT59S/);
    expectInvalid(validate(locationRecipe({ tagHeartbeatDuration: 'PT0S' })), 'body.tagHeartbeatDuration', /at least PT1M/);
  });

  it('given a duration that does not parse, then 400 with the parser reason', () => {
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: '5 minutes' })), 'body.tagHeartbeatDuration', /not an ISO 8601 duration/);
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: 'P1M' })), 'body.tagHeartbeatDuration', /years and months/);
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: true })), 'body.tagHeartbeatDuration', /ISO 8601/);
  });

  it('given a duration as a JSON number of seconds (Jackson default), then it is read as seconds', () => {
    expect(expectValid(validate(inventoryRecipe({ tagHeartbeatDuration: 300 })))).to.include({ tagHeartbeatDuration: 'PT5M' });
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: 30 })), 'body.tagHeartbeatDuration', /at least PT1M/);
    expectInvalid(validate(inventoryRecipe({ tagHeartbeatDuration: -60 })), 'body.tagHeartbeatDuration');
  });
});

describe('validateRecipe: reportingInterval, computeWindow, minimumMovementInMeters', () => {
  it('given each allowed reporting interval on LOCATION, then valid', () => {
    for (const reportingInterval of [0, 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60]) {
      expect(expectValid(validate(locationRecipe({ reportingInterval })))).to.include({ reportingInterval });
    }
  });

  it('given any other reporting interval, then 400 at body.reportingInterval listing the values', () => {
    for (const reportingInterval of [7, 8, 9, 11, 45, 90, -1, 5.5, '5']) {
      expectInvalid(validate(inventoryRecipe({ reportingInterval })), 'body.reportingInterval', /one of 0, 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60/);
    }
  });

  it('given reportingInterval 0 on a non-LOCATION recipe, then 400 (Errors 3)', () => {
    expectInvalid(validate(inventoryRecipe({ reportingInterval: 0 })), 'body.reportingInterval', /only for LOCATION recipes, not INVENTORY/);
  });

  it('given computeWindow below reportingInterval, then 400 at body.computeWindow; equal is valid', () => {
    expectInvalid(validate(inventoryRecipe({ reportingInterval: 10, computeWindow: 6 })), 'body.computeWindow', /at least reportingInterval \(10\), got 6/);
    expect(expectValid(validate(inventoryRecipe({ reportingInterval: 10, computeWindow: 10 })))).to.include({ computeWindow: 10 });
    expect(expectValid(validate(locationRecipe({ reportingInterval: 0, computeWindow: 1 })))).to.include({ computeWindow: 1 });
  });

  it('given computeWindow 0 or fractional, then 400 at body.computeWindow', () => {
    expectInvalid(validate(locationRecipe({ reportingInterval: 0, computeWindow: 0 })), 'body.computeWindow', />= 1/);
    expectInvalid(validate(inventoryRecipe({ computeWindow: 20.5 })), 'body.computeWindow');
  });

  it('given minimumMovementInMeters 0 or a multiple of 0.5, then valid', () => {
    for (const minimumMovementInMeters of [0, 0.5, 1, 2.5, 10]) {
      expect(expectValid(validate(locationRecipe({ minimumMovementInMeters })))).to.include({ minimumMovementInMeters });
    }
  });

  it('given minimumMovementInMeters negative or not a multiple of 0.5, then 400 at body.minimumMovementInMeters', () => {
    expectInvalid(validate(locationRecipe({ minimumMovementInMeters: -0.5 })), 'body.minimumMovementInMeters', />= 0/);
    expectInvalid(validate(locationRecipe({ minimumMovementInMeters: 0.3 })), 'body.minimumMovementInMeters', /multiple of 0.5/);
    expectInvalid(validate(locationRecipe({ minimumMovementInMeters: 1.25 })), 'body.minimumMovementInMeters', /multiple of 0.5/);
  });
});
