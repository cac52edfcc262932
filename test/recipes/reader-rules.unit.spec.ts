import { expect } from 'chai';
import { MIN_REPORTING_INTERVAL } from '../../src/recipes/references';
import { validateRecipe } from '../../src/recipes/validate';
import { errorPaths, expectInvalid, expectValid } from '../readerconfigurations/helpers';
import { ctx, inventoryRecipe, locationRecipe, READER_MODES, SEARCH_MODES } from './fixtures';

const validate = (input: unknown) => validateRecipe(input, ctx);

describe('validateRecipe: minimum reporting interval per reader mode (Errors 2)', () => {
  it('given the published table, then modes are 0 or 3 s, MODE_1004 the stricter 3 and unlisted MODE_1003 0', () => {
    expect(MIN_REPORTING_INTERVAL).to.deep.equal({
      MAX_THROUGHPUT: 0,
      HYBRID: 0,
      MAX_MILLER: 0,
      MODE_1003: 0,
      DENSE_READER_M4: 3,
      DENSE_READER_M8: 3,
      DENSE_READER_M4_TWO: 3,
      AUTOSET_DENSE_READER: 3,
      MODE_1002: 3,
      MODE_1004: 3,
    });
  });

  for (const mode of READER_MODES) {
    const min = MIN_REPORTING_INTERVAL[mode];
    it(`given reader mode ${mode}, then ${min} s is the shortest interval accepted`, () => {
      expectValid(validate(inventoryRecipe({ readerConfigurationName: `inv-mode-${mode}`, reportingInterval: min === 0 ? 1 : min })));
      expectValid(validate(locationRecipe({ readerConfigurationName: `loc-mode-${mode}`, reportingInterval: min })));
      if (min > 0) {
        const body = locationRecipe({ readerConfigurationName: `loc-mode-${mode}`, reportingInterval: 2 });
        expectInvalid(validate(body), 'body.reportingInterval', new RegExp(`at least 3 for reader mode ${mode} of reader configuration 'loc-mode-${mode}', got 2`));
        expectInvalid(validate(locationRecipe({ readerConfigurationName: `loc-mode-${mode}`, reportingInterval: 0 })), 'body.reportingInterval');
      }
    });
  }

  it('given a dense-mode per-reader override, then the recipe interval is checked against it too', () => {
    const body = locationRecipe({ reportingInterval: 1, readerConfigurations: { r1: 'loc-mode-DENSE_READER_M8' } });
    expectInvalid(validate(body), 'body.reportingInterval', /DENSE_READER_M8 of reader configuration 'loc-mode-DENSE_READER_M8'/);
  });

  it('given one dense configuration used by several readers, then it is reported once', () => {
    const dense = 'loc-mode-MODE_1002';
    const body = locationRecipe({ reportingInterval: 1, readerConfigurationName: dense, readerConfigurations: { r1: dense, r2: dense } });
    expect(errorPaths(validate(body))).to.deep.equal(['body.reportingInterval']);
  });

  it('given the default reporting interval (5), then every reader mode accepts it', () => {
    for (const mode of READER_MODES) expectValid(validate(inventoryRecipe({ readerConfigurationName: `inv-mode-${mode}` })));
  });

  it('given a DO_NOTHING configuration, then it sets no minimum', () => {
    expectValid(validate(locationRecipe({ reportingInterval: 0, readerConfigurationName: 'off', readerConfigurations: { r1: 'loc' } })));
  });
});

describe('validateRecipe: tagExpiryDuration (Errors 4)', () => {
  it('given a LOCATION configuration, then tagExpiryDuration is allowed and stored canonically', () => {
    expect(expectValid(validate(locationRecipe({ tagExpiryDuration: 'PT600S' })))).to.include({ tagExpiryDuration: 'PT10M' });
  });

  it('given INVENTORY with searchMode DUAL_TARGET, then allowed', () => {
    expect(expectValid(validate(inventoryRecipe({ tagExpiryDuration: 'PT30M' })))).to.include({ tagExpiryDuration: 'PT30M' });
  });

  it('given INVENTORY with SINGLE_TARGET, then 400 at body.tagExpiryDuration naming the configuration', () => {
    const body = inventoryRecipe({ readerConfigurationName: 'inv-SINGLE_TARGET', tagExpiryDuration: 'PT30M' });
    expectInvalid(validate(body), 'body.tagExpiryDuration', /not allowed with reader configuration 'inv-SINGLE_TARGET' \(operation INVENTORY, searchMode SINGLE_TARGET\)/);
  });

  for (const mode of SEARCH_MODES.filter((m) => m !== 'DUAL_TARGET' && m !== 'SINGLE_TARGET')) {
    it(`given INVENTORY with searchMode ${mode}, then refused like SINGLE_TARGET`, () => {
      expectInvalid(validate(inventoryRecipe({ readerConfigurationName: `inv-${mode}`, tagExpiryDuration: 'PT30M' })), 'body.tagExpiryDuration');
    });
  }

  it('given a DUAL_TARGET default and a SINGLE_TARGET override, then 400: every configuration must allow it', () => {
    const body = inventoryRecipe({ readerConfigurations: { r1: 'inv-SINGLE_TARGET' }, tagExpiryDuration: 'PT30M' });
    expectInvalid(validate(body), 'body.tagExpiryDuration', /inv-SINGLE_TARGET/);
  });

  it('given a DO_NOTHING override or default, then it does not block tag expiry', () => {
    expectValid(validate(inventoryRecipe({ readerConfigurations: { r1: 'off' }, tagExpiryDuration: 'PT30M' })));
    expectValid(validate(inventoryRecipe({ readerConfigurationName: 'off', readerConfigurations: { r1: 'inv' }, tagExpiryDuration: 'PT1M' })));
  });

  it('given a SINGLE_TARGET configuration and no tagExpiryDuration (or null), then valid', () => {
    expectValid(validate(inventoryRecipe({ readerConfigurationName: 'inv-SINGLE_TARGET' })));
    expectValid(validate(inventoryRecipe({ readerConfigurationName: 'inv-SINGLE_TARGET', tagExpiryDuration: null })));
  });

  it('given tagExpiryDuration not greater than reportingInterval, then 400; just greater is valid', () => {
    expectInvalid(validate(inventoryRecipe({ reportingInterval: 5, tagExpiryDuration: 'PT5S' })), 'body.tagExpiryDuration', /longer than reportingInterval \(5 s\), got PT5S/);
    expectValid(validate(inventoryRecipe({ reportingInterval: 5, tagExpiryDuration: 'PT5.001S' })));
    expectInvalid(validate(inventoryRecipe({ tagExpiryDuration: 'PT3S' })), 'body.tagExpiryDuration', /\(5 s\)/);
  });

  it('given reportingInterval 0 (500 ms) on LOCATION, then the expiry must exceed 500 ms', () => {
    expectInvalid(validate(locationRecipe({ reportingInterval: 0, tagExpiryDuration: 'PT0.5S' })), 'body.tagExpiryDuration', /500 ms/);
    expectValid(validate(locationRecipe({ reportingInterval: 0, tagExpiryDuration: 'PT0.6S' })));
  });

  it('given a tagExpiryDuration that does not parse, then 400 at body.tagExpiryDuration', () => {
    expectInvalid(validate(locationRecipe({ tagExpiryDuration: 'soon' })), 'body.tagExpiryDuration', /ISO 8601/);
  });
});
