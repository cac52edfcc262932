import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { formatDecodeErrors } from '../../src/core/decode-errors';
import { ReaderConfigurationBody } from '../../src/readerconfigurations/codec';
import {
  deletionRefusal,
  recipesUsing,
  replaceConflicts,
  validateReaderConfigurationWrite,
} from '../../src/recipes/reader-configuration-use';
import type { ReaderConfiguration } from '../../src/readerconfigurations/model';
import { namedBody } from '../../src/readerconfigurations/named-body';
import { validateReaderConfiguration } from '../../src/readerconfigurations/validate';
import type { Recipe } from '../../src/recipes/model';
import { validateRecipe } from '../../src/recipes/validate';
import { ctx, inventoryRecipe, llrpRecipe, locationRecipe, thresholdRecipe } from './fixtures';
import { expectValid } from '../readerconfigurations/helpers';
import { inventoryBody, locationBody, normalBody, thresholdBody } from '../readerconfigurations/fixtures';

const rc = (body: Record<string, unknown>): ReaderConfiguration => expectValid(validateReaderConfiguration(body));
const recipe = (body: Record<string, unknown>): Recipe => expectValid(validateRecipe(body, ctx));

// Recipes of every type over the fixture configurations 'inv', 'loc', 'thr', 'normal'.
const recipes: Recipe[] = [
  recipe(inventoryRecipe({ name: 'inv-r', reportingInterval: 1 })),
  recipe(inventoryRecipe({ name: 'inv-expiry', tagExpiryDuration: 'PT1M' })),
  recipe(locationRecipe({ name: 'loc-r', readerConfigurationName: 'off', readerConfigurations: { r1: 'loc' } })),
  recipe(thresholdRecipe({ name: 'thr-r' })),
  recipe(llrpRecipe({ name: 'llrp-r' })),
];

describe('reader configurations used by recipes', () => {
  describe('recipesUsing', () => {
    it('given recipes naming a configuration as default or as override, then both are found, others not', () => {
      expect(recipesUsing('inv', recipes).map((r) => r.name)).to.deep.equal(['inv-r', 'inv-expiry']);
      expect(recipesUsing('loc', recipes).map((r) => r.name)).to.deep.equal(['loc-r']);
      expect(recipesUsing('off', recipes).map((r) => r.name)).to.deep.equal(['loc-r']);
      expect(recipesUsing('unused', recipes)).to.deep.equal([]);
    });
  });

  describe('deletionRefusal', () => {
    it('given a configuration no recipe uses, then no refusal', () => {
      expect(deletionRefusal('unused', recipes)).to.equal(undefined);
    });

    it('given a configuration recipes use, then 409 naming each recipe', () => {
      const refusal = deletionRefusal('inv', recipes);
      expect(refusal?.status).to.equal(409);
      expect(refusal?.message).to.include("'inv-r'").and.to.include("'inv-expiry'");
      expect(refusal?.errors.map((e) => e.reason)).to.deep.equal(["is used by recipe 'inv-r'", "is used by recipe 'inv-expiry'"]);
    });
  });

  describe('replaceConflicts', () => {
    it('given the same operation and compatible settings, then no conflict', () => {
      expect(replaceConflicts(rc(inventoryBody({ transmitPowerInDbm: 20 })), recipes)).to.deep.equal([]);
      expect(replaceConflicts(rc(locationBody({ session: 3 })), recipes)).to.deep.equal([]);
      expect(replaceConflicts(rc(thresholdBody({ session: 0 })), recipes)).to.deep.equal([]);
      expect(replaceConflicts(rc(normalBody({ session: 0 })), recipes)).to.deep.equal([]);
    });

    it('given DO_NOTHING, then no conflict whatever uses it', () => {
      for (const name of ['inv', 'loc', 'thr', 'normal']) {
        expect(replaceConflicts(rc({ name, operation: 'DO_NOTHING' }), recipes)).to.deep.equal([]);
      }
    });

    it('given another operation, then each recipe using it conflicts at body.operation (Errors 8)', () => {
      const conflicts = replaceConflicts(rc(locationBody({}, 'inv')), recipes);
      expect(conflicts.map((c) => c.recipe)).to.deep.equal(['inv-r', 'inv-expiry']);
      expect(conflicts.flatMap((c) => c.errors.map((e) => e.path))).to.deep.equal(['body.operation', 'body.operation']);
      expect(conflicts[0]?.errors[0]?.reason).to.match(/needs operation INVENTORY or DO_NOTHING, got LOCATION/);
    });

    it('given an override turned into another operation, then the recipe conflicts', () => {
      expect(replaceConflicts(rc(inventoryBody({}, 'loc')), recipes).map((c) => c.recipe)).to.deep.equal(['loc-r']);
      // LLRP recipes run NORMAL configurations; THRESHOLD is not one.
      expect(replaceConflicts(rc(thresholdBody({}, 'normal')), recipes).map((c) => c.recipe)).to.deep.equal(['llrp-r']);
    });

    it('given a reader mode too slow for a recipe\'s reporting interval, then that recipe conflicts at readerMode (Errors 2)', () => {
      const conflicts = replaceConflicts(rc(inventoryBody({ readerMode: 'DENSE_READER_M4' })), recipes);
      expect(conflicts.map((c) => c.recipe)).to.deep.equal(['inv-r']);
      expect(conflicts[0]?.errors.map((e) => e.path)).to.deep.equal(['body.configuration.readerMode']);
    });

    it('given a search mode that does not allow tag expiry, then the recipe with tagExpiryDuration conflicts (Errors 4)', () => {
      const conflicts = replaceConflicts(rc(inventoryBody({ searchMode: 'SINGLE_TARGET' })), recipes);
      expect(conflicts.map((c) => c.recipe)).to.deep.equal(['inv-expiry']);
      expect(conflicts[0]?.errors.map((e) => e.path)).to.deep.equal(['body.configuration.searchMode']);
    });
  });

  describe('validateReaderConfigurationWrite', () => {
    it('given a valid body no recipe objects to, then the stored configuration', () => {
      expect(isRight(validateReaderConfigurationWrite(inventoryBody({}, 'new'), recipes))).to.equal(true);
    });

    it('given an invalid body, then the 400 of validateReaderConfiguration (before any recipe check)', () => {
      const result = validateReaderConfigurationWrite(locationBody({ session: 1 }, 'inv'), recipes);
      expect(isLeft(result) && result.left.status).to.equal(400);
    });

    it('given a change that breaks recipes, then 409 naming them once each', () => {
      const result = validateReaderConfigurationWrite(locationBody({}, 'inv'), recipes);
      if (!isLeft(result)) throw new Error('expected a refusal');
      expect(result.left.status).to.equal(409);
      expect(result.left.message).to.match(/^Reader configuration 'inv' is used by recipe 'inv-r', 'inv-expiry'/);
      expect(result.left.errors).to.have.length(2);
    });
  });
});

describe('namedBody', () => {
  const codec = namedBody('ReaderConfiguration', ReaderConfigurationBody);

  it('given a body with a name, then it passes through unchanged, however wrong the rest', () => {
    const body = { name: 'x', operation: 'SCAN', extra: 1 };
    const decoded = codec.decode(body);
    if (!isRight(decoded)) throw new Error('expected to decode');
    expect(decoded.right.name).to.equal('x');
    expect(decoded.right.body).to.equal(body);
    expect(codec.encode(decoded.right)).to.equal(body);
  });

  it('given no usable name, then the full codec\'s errors, with body-relative paths', () => {
    for (const body of [{ operation: 'INVENTORY' }, { name: '  ', operation: 'INVENTORY' }, { name: 3, operation: 'SCAN' }]) {
      const decoded = codec.decode(body);
      if (!isLeft(decoded)) throw new Error('expected a failure');
      expect(formatDecodeErrors(decoded.left, 'body').map((e) => e.path)).to.include('body.name');
    }
    const both = codec.decode({ name: 3, operation: 'SCAN' });
    if (!isLeft(both)) throw new Error('expected a failure');
    expect(formatDecodeErrors(both.left, 'body').map((e) => e.path)).to.include('body.operation');
  });

  it('given no object at all, then a failure', () => {
    for (const u of [null, [], 'x', 3]) expect(isLeft(codec.decode(u))).to.equal(true);
    expect(codec.is({ name: 'x', body: {} })).to.equal(true);
    expect(codec.is({ name: 'x' })).to.equal(false);
  });
});
