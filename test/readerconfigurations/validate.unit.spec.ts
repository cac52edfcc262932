import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { ReaderConfigurationBody } from '../../src/readerconfigurations/codec';
import { validateReaderConfiguration as validate } from '../../src/readerconfigurations/validate';
import { errorPaths, expectInvalid, expectValid } from './helpers';
import { inventoryBody, locationBody, normalBody, thresholdBody } from './fixtures';

describe('validateReaderConfiguration: document and operation', () => {
  it('given a complete INVENTORY body, when validated, then it is stored as given', () => {
    const rc = expectValid(validate(inventoryBody()));
    expect(rc).to.deep.equal({
      name: 'inv',
      operation: 'INVENTORY',
      configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' },
    });
  });

  it('given a body that is no object, then 400 at body', () => {
    expectInvalid(validate('nope'), 'body');
    expectInvalid(validate(null), 'body');
  });

  it('given no name or a blank one, then 400 at body.name', () => {
    const { name: _name, ...noName } = inventoryBody();
    expectInvalid(validate(noName), 'body.name', /is required/);
    expectInvalid(validate(inventoryBody({}, '  ')), 'body.name', /not be empty/);
  });

  it('given an unknown operation, then 400 at body.operation listing the values', () => {
    expectInvalid(validate({ ...inventoryBody(), operation: 'SCAN' }), 'body.operation', /"INVENTORY"/);
    const { operation: _op, ...noOperation } = inventoryBody();
    expectInvalid(validate(noOperation), 'body.operation', /is required/);
  });

  it('given unknown fields at any level, then they are ignored and not stored', () => {
    const body = { ...inventoryBody({ futureKnob: 3 }), comment: 'x' };
    const rc = expectValid(validate(body));
    expect(rc).to.not.have.property('comment');
    expect(rc.configuration).to.not.have.property('futureKnob');
  });

  it('given a body already decoded by ReaderConfigurationBody (as the route factory does), then the result is the same', () => {
    const body = inventoryBody({ filter: { tagMask: 'E2', extra: 1 }, channelConfig: { channelIndex: 2 } });
    const decoded = ReaderConfigurationBody.decode(body);
    if (!isRight(decoded)) throw new Error('body should decode');
    expect(expectValid(validate(decoded.right))).to.deep.equal(expectValid(validate(body)));
  });

  it('given null optional fields, then they count as not set', () => {
    const rc = expectValid(validate(inventoryBody({ filter: null, antennas: null, disabledAntennas: null, reportConfig: null })));
    expect(rc.configuration).to.not.have.any.keys('filter', 'antennas', 'disabledAntennas', 'reportConfig');
  });

  it('given an active operation without configuration, then 400 at body.configuration', () => {
    expectInvalid(validate({ name: 'x', operation: 'LOCATION' }), 'body.configuration', /required for operation LOCATION/);
    expectInvalid(validate({ name: 'x', operation: 'INVENTORY', configuration: null }), 'body.configuration');
    expectInvalid(validate({ name: 'x', operation: 'INVENTORY', configuration: [] }), 'body.configuration');
  });

  it('given DO_NOTHING with only a name, then it is valid with an empty configuration', () => {
    expect(expectValid(validate({ name: 'off', operation: 'DO_NOTHING' }))).to.deep.equal({
      name: 'off',
      operation: 'DO_NOTHING',
      configuration: {},
    });
  });

  it('given DO_NOTHING with settings of any operation, then they are ignored (a disabled reader uses none)', () => {
    const body = { ...inventoryBody({ antennas: [1], disabledAntennas: [2], reportConfig: {} }), operation: 'DO_NOTHING' };
    expect(expectValid(validate(body)).configuration).to.deep.equal({});
  });

  it('given DO_NOTHING with a badly typed setting, then the type error is still reported', () => {
    expectInvalid(validate({ name: 'off', operation: 'DO_NOTHING', configuration: { session: 7 } }), 'body.configuration.session');
  });

  it('given the deprecated NORMAL operation, then it is accepted and stored as NORMAL', () => {
    expect(expectValid(validate(normalBody())).operation).to.equal('NORMAL');
  });

  it('given THRESHOLD, then readerMode and session suffice', () => {
    expect(expectValid(validate(thresholdBody())).operation).to.equal('THRESHOLD');
  });

  it('given several problems, then one 400 lists them all and the message names the first', () => {
    const result = validate(locationBody({ session: 1, antennas: [1], reportConfig: {} }));
    expect(errorPaths(result)).to.have.members([
      'body.configuration.session',
      'body.configuration.antennas',
      'body.configuration.reportConfig',
    ]);
    const error = expectInvalid(result, 'body.configuration.session');
    expect(error.message).to.match(/^Invalid reader configuration: body\.configuration\.\w+ .* \(and 2 more\)$/);
  });
});

describe('validateReaderConfiguration: readerMode, session, searchMode', () => {
  const modes = ['MAX_THROUGHPUT', 'HYBRID', 'DENSE_READER_M4', 'DENSE_READER_M8', 'MAX_MILLER', 'DENSE_READER_M4_TWO'];
  const more = ['AUTOSET_DENSE_READER', 'MODE_1002', 'MODE_1003', 'MODE_1004'];

  it('given each of the ten reader modes, then it is accepted', () => {
    for (const readerMode of [...modes, ...more]) expectValid(validate(inventoryBody({ readerMode })));
  });

  it('given an unknown or missing readerMode on an active operation, then 400 at body.configuration.readerMode', () => {
    expectInvalid(validate(inventoryBody({ readerMode: 'TURBO' })), 'body.configuration.readerMode', /"MAX_THROUGHPUT"/);
    for (const body of [inventoryBody(), locationBody(), thresholdBody(), normalBody()]) {
      const configuration = { ...(body.configuration as object), readerMode: undefined };
      expectInvalid(validate({ ...body, configuration }), 'body.configuration.readerMode', /is required for operation/);
    }
  });

  it('given sessions 0 to 3, then INVENTORY accepts each', () => {
    for (const session of [0, 1, 2, 3]) expect(expectValid(validate(inventoryBody({ session }))).configuration).to.include({ session });
  });

  it('given a session outside 0-3 or not an integer, then 400 at body.configuration.session', () => {
    for (const session of [4, -1, 1.5, '2']) {
      expectInvalid(validate(inventoryBody({ session })), 'body.configuration.session', /0, 1, 2 or 3/);
    }
  });

  it('given no session on an active operation, then 400 at body.configuration.session', () => {
    expectInvalid(validate(locationBody({ session: undefined })), 'body.configuration.session', /is required/);
  });

  it('given LOCATION with session 0 or 1, then 400; with 2 or 3, then valid', () => {
    expectInvalid(validate(locationBody({ session: 0 })), 'body.configuration.session', /2 or 3 for operation LOCATION/);
    expectInvalid(validate(locationBody({ session: 1 })), 'body.configuration.session', /2 or 3/);
    expectValid(validate(locationBody({ session: 2 })));
    expectValid(validate(locationBody({ session: 3 })));
  });

  it('given INVENTORY without searchMode, then 400 at body.configuration.searchMode', () => {
    expectInvalid(validate(inventoryBody({ searchMode: undefined })), 'body.configuration.searchMode', /required for operation INVENTORY/);
    expectInvalid(validate(inventoryBody({ searchMode: null })), 'body.configuration.searchMode', /required/);
  });

  it('given each search mode on INVENTORY, then it is accepted; an unknown one is refused', () => {
    const all = ['READER_SELECTED', 'SINGLE_TARGET', 'DUAL_TARGET', 'TAG_FOCUS', 'SINGLE_TARGET_BTOA', 'DUAL_TARGET_WITH_BTOASELECT'];
    for (const searchMode of all) expectValid(validate(inventoryBody({ searchMode })));
    expectInvalid(validate(inventoryBody({ searchMode: 'DUAL' })), 'body.configuration.searchMode');
  });

  it('given searchMode on LOCATION or NORMAL, then 400 naming the field', () => {
    const reason = /applies only to operation INVENTORY or THRESHOLD, not LOCATION/;
    expectInvalid(validate(locationBody({ searchMode: 'DUAL_TARGET' })), 'body.configuration.searchMode', reason);
    expectInvalid(validate(normalBody({ searchMode: 'DUAL_TARGET' })), 'body.configuration.searchMode', /not NORMAL/);
  });

  it('given searchMode on THRESHOLD (factory THRESHOLD configuration), then it is optional and kept', () => {
    const rc = expectValid(validate(thresholdBody({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' })));
    expect(rc.configuration).to.include({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' });
  });
});
