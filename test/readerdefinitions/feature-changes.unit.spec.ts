import { expect } from 'chai';
import { decideOnHistory } from '../../src/core/command';
import {
  activeFeatureRequests,
  evolveFeatures,
  featureChanges,
  featureStatusOf,
  initialFeatureStates,
} from '../../src/readerdefinitions/feature-changes';
import type { FeatureChangeCommand, FeatureChangeEvent } from '../../src/readerdefinitions/features';
import { FeatureChangeBody, featureChangeEvents, featureStatusPath } from '../../src/readerdefinitions/features';
import { decoded, leftOf, paths, refused, rightOf } from './support';

const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-01T10:00:05.000Z';
const now = new Date('2024-05-01T10:01:00.000Z');
const NOW = now.toISOString();

const given = (...history: FeatureChangeEvent[]) => ({
  when: (command: FeatureChangeCommand) => decideOnHistory(featureChanges, history, command, now),
});

const requested = (target: 'ENABLED' | 'DISABLED' = 'ENABLED', at = T0): FeatureChangeEvent => ({
  type: 'FeatureChangeRequested',
  data: { feature: 'ANTENNA_HUB', target, at },
});
const taken: FeatureChangeEvent = { type: 'FeatureChangeTaken', data: { feature: 'ANTENNA_HUB', at: T1 } };
const completed = (status: 'ENABLED' | 'DISABLED' = 'ENABLED'): FeatureChangeEvent => ({
  type: 'FeatureChangeCompleted',
  data: { feature: 'ANTENNA_HUB', status, at: T1 },
});
const failed: FeatureChangeEvent = { type: 'FeatureChangeFailed', data: { feature: 'ANTENNA_HUB', message: 'no hub', at: T1 } };

const request = (action: 'ENABLE' | 'DISABLE' = 'ENABLE'): FeatureChangeCommand => ({ type: 'RequestFeatureChange', feature: 'ANTENNA_HUB', action });
const take: FeatureChangeCommand = { type: 'TakeFeatureChange', feature: 'ANTENNA_HUB' };
const complete: FeatureChangeCommand = { type: 'CompleteFeatureChange', feature: 'ANTENNA_HUB' };
const fail = (message = 'hub not found'): FeatureChangeCommand => ({ type: 'FailFeatureChange', feature: 'ANTENNA_HUB', message });

describe('readerdefinitions/feature-changes body', () => {
  it('accepts feature ANTENNA_HUB with ENABLE or DISABLE and refuses anything else', () => {
    expect(decoded(FeatureChangeBody, { feature: 'ANTENNA_HUB', action: 'DISABLE' })).to.deep.equal({ feature: 'ANTENNA_HUB', action: 'DISABLE' });
    expect(paths(refused(FeatureChangeBody, { feature: 'GPIO', action: 'ON' }))).to.deep.equal(['body.feature', 'body.action']);
  });

  it('gives the Location of the status, with the reader name escaped', () => {
    expect(featureStatusPath('dock door/1', 'ANTENNA_HUB')).to.equal('/configuration/v1/readerDefinitions/dock%20door%2F1/featureChanges/ANTENNA_HUB');
  });
});

describe('readerdefinitions/feature-changes decide', () => {
  it('given nothing, when the status is read, then DISABLED, IDLE, never requested nor reported', () => {
    expect(featureStatusOf(initialFeatureStates, 'ANTENNA_HUB')).to.deep.equal({
      status: 'DISABLED', statusLastUpdated: null, requestStatus: 'IDLE', requestStatusLastUpdated: null, requestTargetStatus: null,
    });
  });

  it('given nothing, when ENABLE is requested, then INITIALIZING with target ENABLED at now', () => {
    const { events, state } = rightOf(given().when(request('ENABLE')));
    expect(events).to.deep.equal([{ type: 'FeatureChangeRequested', data: { feature: 'ANTENNA_HUB', target: 'ENABLED', at: NOW } }]);
    expect(state.ANTENNA_HUB).to.deep.equal({
      status: 'DISABLED', statusLastUpdated: null, requestStatus: 'INITIALIZING', requestStatusLastUpdated: NOW, requestTargetStatus: 'ENABLED',
    });
  });

  it('given a request, when the agent takes it, then CONFIGURING', () => {
    const { state } = rightOf(given(requested()).when(take));
    expect(state.ANTENNA_HUB).to.include({ requestStatus: 'CONFIGURING', requestStatusLastUpdated: NOW, requestTargetStatus: 'ENABLED' });
  });

  it('given CONFIGURING, when the agent reports success, then IDLE with status = target and no active target', () => {
    const { events, state } = rightOf(given(requested(), taken).when(complete));
    expect(events).to.deep.equal([{ type: 'FeatureChangeCompleted', data: { feature: 'ANTENNA_HUB', status: 'ENABLED', at: NOW } }]);
    expect(state.ANTENNA_HUB).to.deep.equal({
      status: 'ENABLED', statusLastUpdated: NOW, requestStatus: 'IDLE', requestStatusLastUpdated: NOW, requestTargetStatus: null,
    });
  });

  it('given INITIALIZING (take not reported), when the agent reports success, then it is accepted', () => {
    expect(rightOf(given(requested('DISABLED')).when(complete)).state.ANTENNA_HUB).to.include({ status: 'DISABLED', requestStatus: 'IDLE' });
  });

  it('given CONFIGURING, when the agent reports the requested status, then IDLE with it', () => {
    const { events } = rightOf(given(requested('ENABLED'), taken).when({ ...complete, status: 'ENABLED' }));
    expect(events).to.deep.equal([{ type: 'FeatureChangeCompleted', data: { feature: 'ANTENNA_HUB', status: 'ENABLED', at: NOW } }]);
  });

  it('given CONFIGURING, when the agent reports a status other than the target, then ERROR naming both; status unchanged', () => {
    const { events, state } = rightOf(given(requested('ENABLED'), taken).when({ ...complete, status: 'DISABLED' }));
    expect(events.map((e) => e.type)).to.deep.equal(['FeatureChangeFailed']);
    expect(state.ANTENNA_HUB).to.include({ requestStatus: 'ERROR', status: 'DISABLED', statusLastUpdated: null, requestTargetStatus: 'ENABLED' });
    expect(state.ANTENNA_HUB?.message).to.equal('the reader reported ANTENNA_HUB DISABLED, not the requested ENABLED');
  });

  it('given a request failed by a wrong status report, when the same report comes again, then nothing is appended', () => {
    const history = [requested('ENABLED'), taken];
    const first = rightOf(given(...history).when({ ...complete, status: 'DISABLED' })).events;
    expect(rightOf(given(...history, ...first).when({ ...complete, status: 'DISABLED' })).events).to.deep.equal([]);
  });

  it('given CONFIGURING, when the agent reports failure, then ERROR with the message; status and target stay', () => {
    const { state } = rightOf(given(requested(), taken).when(fail('hub not found')));
    expect(state.ANTENNA_HUB).to.deep.equal({
      status: 'DISABLED', statusLastUpdated: null, requestStatus: 'ERROR', requestStatusLastUpdated: NOW, requestTargetStatus: 'ENABLED', message: 'hub not found',
    });
  });

  it('given a failure report without text, when decided, then a default message is recorded', () => {
    expect(rightOf(given(requested()).when(fail('  '))).state.ANTENNA_HUB?.message).to.match(/without detail/);
  });

  for (const [label, history] of [['INITIALIZING', [requested()]], ['CONFIGURING', [requested(), taken]]] as const) {
    it(`given a request ${label}, when another is requested, then 409 (not replaced)`, () => {
      const error = leftOf(given(...history).when(request('DISABLE')));
      expect(error.status).to.equal(409);
      expect(error.message).to.match(new RegExp(`already in progress \\(requestStatus ${label}\\)`));
    });
  }

  it('given ERROR, when a new request is made, then it starts afresh and the old message is gone', () => {
    const { state } = rightOf(given(requested(), failed).when(request('ENABLE')));
    expect(state.ANTENNA_HUB).to.deep.equal({
      status: 'DISABLED', statusLastUpdated: null, requestStatus: 'INITIALIZING', requestStatusLastUpdated: NOW, requestTargetStatus: 'ENABLED',
    });
  });

  it('given IDLE after success, when a new request is made, then the reported status is kept until the next report', () => {
    expect(rightOf(given(requested(), completed('ENABLED')).when(request('DISABLE'))).state.ANTENNA_HUB).to.include({
      status: 'ENABLED', statusLastUpdated: T1, requestTargetStatus: 'DISABLED',
    });
  });

  it('given a repeated agent report, when decided again, then nothing is appended (idempotent)', () => {
    expect(rightOf(given(requested(), taken).when(take)).events).to.deep.equal([]);
    expect(rightOf(given(requested(), completed()).when(complete)).events).to.deep.equal([]);
    expect(rightOf(given(requested(), failed).when(fail())).events).to.deep.equal([]);
  });

  it('given no pending request, when the agent reports, then 409', () => {
    expect(leftOf(given().when(take)).status).to.equal(409);
    expect(leftOf(given().when(complete)).status).to.equal(409);
    expect(leftOf(given().when(fail())).status).to.equal(409);
    expect(leftOf(given(requested(), failed).when(take)).status).to.equal(409);
    expect(leftOf(given(requested(), failed).when(complete)).status).to.equal(409);
    expect(leftOf(given(requested(), completed()).when(fail())).status).to.equal(409);
    expect(leftOf(given(requested(), completed()).when(take)).status).to.equal(409);
  });
});

describe('readerdefinitions/feature-changes events and listing', () => {
  it('round-trips every event through its codec (what the event store reads back)', () => {
    for (const e of [requested(), taken, completed(), failed]) {
      const json: unknown = JSON.parse(JSON.stringify(e.data));
      expect(rightOf(featureChangeEvents[e.type].decode(json))).to.deep.equal(e.data);
    }
  });

  it('lists only CONFIGURING and ERROR requests as active (spec listing endpoint)', () => {
    expect(activeFeatureRequests([requested()].reduce(evolveFeatures, initialFeatureStates))).to.deep.equal({});
    expect(activeFeatureRequests([requested(), completed()].reduce(evolveFeatures, initialFeatureStates))).to.deep.equal({});
    expect(Object.keys(activeFeatureRequests([requested(), taken].reduce(evolveFeatures, initialFeatureStates)))).to.deep.equal(['ANTENNA_HUB']);
    expect(activeFeatureRequests([requested(), failed].reduce(evolveFeatures, initialFeatureStates)).ANTENNA_HUB?.requestStatus).to.equal('ERROR');
  });
});
