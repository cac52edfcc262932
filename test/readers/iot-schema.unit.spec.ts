// The bodies tagtrail sends an Impinj IoT reader, checked against the JSON
// Schema of the reader interface's bodies (src/readers/iot-bodies.schema.json)
// with a general validator (ajv), and the simulated reader's own check of the
// same schema (src/simulator/json-schema.ts) held to agree with it, on those
// bodies and on bodies written by hand that a reader refuses.
import { expect } from 'chai';
import Ajv from 'ajv';
import * as E from 'fp-ts/Either';
import schema from '../../src/readers/iot-bodies.schema.json';
import { mqttSettings, planPreset, systemTimeBody, webhookSettings } from '../../src/readers/iot';
import { schemaProblem, type SchemaDocument } from '../../src/simulator/json-schema';
import type { ReaderConfigDetails } from '../../src/readerconfigurations';

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema, 'iot');
const ajvOk = (definition: string, body: unknown): boolean => ajv.validate(`iot#/definitions/${definition}`, body) as boolean;
const simOk = (definition: string, body: unknown): boolean => schemaProblem(schema as unknown as SchemaDocument, definition, body) === null;

/** Both validators agree on `body`, and it is `expected` (valid or not). */
function expectBody(definition: string, body: unknown, expected: boolean): void {
  const a = ajvOk(definition, body);
  expect(a, `ajv on ${JSON.stringify(body)}: ${ajv.errorsText()}`).to.equal(expected);
  expect(simOk(definition, body), `the simulator on ${JSON.stringify(body)}: ${schemaProblem(schema as unknown as SchemaDocument, definition, body)}`).to.equal(expected);
}

const configurations: Array<[string, ReaderConfigDetails, readonly number[] | undefined]> = [
  ['INVENTORY', { readerMode: 'MAX_THROUGHPUT', session: 2 }, undefined],
  ['INVENTORY', { readerMode: 'DENSE_READER_M4', session: 0, searchMode: 'SINGLE_TARGET', transmitPowerInDbm: 30, tagPopulationEstimate: 32768, antennas: [1, 2, 3], disabledAntennas: [2] }, undefined],
  ['INVENTORY', { readerMode: 'MODE_1002', session: 3, searchMode: 'TAG_FOCUS', filter: { tagMask: '3008', memoryBank: 1, pointer: 32 } }, undefined],
  ['INVENTORY', { readerMode: 'MAX_MILLER', session: 1, searchMode: 'READER_SELECTED', filter: { tagMask: 'E2801', memoryBank: 2, pointer: 0 } }, undefined],
  ['NORMAL', { readerMode: 'MAX_THROUGHPUT', session: 2, reportConfig: { tidIncluded: true, phaseAngleIncluded: true } }, undefined],
  ['THRESHOLD', { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET_WITH_BTOASELECT', transmitPowerInDbm: 31.5 }, [1, 2]],
];

describe('readers/iot: the bodies tagtrail sends fit the reader interface\'s schema', () => {
  it('given every kind of reader configuration, when planned as a preset, then it fits InventoryRequest', () => {
    for (const [operation, cfg, doorAntennas] of configurations) {
      const p = planPreset(operation, cfg, { maxPowerCdbm: 3300, ...(doorAntennas ? { doorAntennas } : {}) });
      if (E.isLeft(p)) expect.fail(`${operation} ${JSON.stringify(cfg)}: ${p.left}`);
      expectBody('InventoryRequest', p.right, true);
    }
  });

  it('given the webhook, MQTT and clock settings tagtrail writes, then each fits its definition (a client id of letters and digits, at most 23)', () => {
    expectBody('EventWebhookConfiguration', webhookSettings('http://tagtrail.local:8080/itemsense/agent/v1/readers/r1/iot/events', 'r1', 'secret'), true);
    for (const name of ['r1', 'dock door #2 (east) with a long name', 'é/ü+#']) {
      const m = mqttSettings(new URL('mqtt://broker.local:1883'), `tagtrail/run/${encodeURIComponent(name)}/events`, `reader/tagtrail:/${name}`);
      expectBody('MqttConfiguration', m, true);
    }
    expect(mqttSettings(new URL('mqtt://b'), 't', 'a')['clientId']).to.not.equal(mqttSettings(new URL('mqtt://b'), 't', 'b')['clientId']);
    expectBody('SystemTime', systemTimeBody(new Date('2026-11-29T04:00:00.123Z')), true);
  });

  it('given bodies a reader refuses, written by hand, then both validators refuse them', () => {
    // The webhook's address and credentials at the top level instead of in serverConfiguration.
    expectBody('EventWebhookConfiguration', { active: true, url: 'http://h/x', authentication: { type: 'BASIC', username: 'r', password: 'p' } }, false);
    expectBody('EventWebhookConfiguration', { active: true, serverConfiguration: { url: 'ftp://h/x' } }, false);
    const antenna = { antennaPort: 1, transmitPowerCdbm: 3000, rfMode: 0, inventorySession: 2, inventorySearchMode: 'dual-target', estimatedTagPopulation: 16 };
    expectBody('InventoryRequest', { antennaConfigs: [antenna] }, true);
    const { transmitPowerCdbm: _power, ...withoutPower } = antenna;
    expectBody('InventoryRequest', { antennaConfigs: [withoutPower] }, false);
    expectBody('InventoryRequest', { antennaConfigs: [{ ...antenna, inventorySession: 4 }] }, false);
    expectBody('InventoryRequest', { antennaConfigs: [{ ...antenna, fastId: true }] }, false);
    expectBody('InventoryRequest', { antennaConfigs: [{ ...antenna, estimatedTagPopulation: 0 }] }, false);
    expectBody('InventoryRequest', { antennaConfigs: [{ ...antenna, filtering: { filters: [{ action: 'include', tagMemoryBank: 'reserved', bitOffset: 0, mask: '00' }] } }] }, false);
    expectBody('InventoryRequest', { antennaConfigs: [] }, false);
    expectBody('InventoryRequest', { eventConfig: { tagInventory: { tidHex: 'on' } }, antennaConfigs: [antenna] }, false);
    expectBody('MqttConfiguration', { brokerHostname: 'b', clientId: 'r1-reader', eventTopic: 't' }, false);
    expectBody('MqttConfiguration', { brokerHostname: 'b', clientId: 'a'.repeat(24), eventTopic: 't' }, false);
    expectBody('MqttConfiguration', { brokerHostname: 'b', clientId: 'abc', eventTopic: 't/#' }, false);
    expectBody('SystemTime', { time: '2026-11-29T04:00:00Z' }, false);
    expectBody('SystemTime', { systemTime: 'yesterday' }, false);
  });
});
