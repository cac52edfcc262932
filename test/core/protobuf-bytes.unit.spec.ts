// src/core/protobuf-bytes.ts patches setters of @eventstore/db-client's
// generated protobuf messages. What it relies on, checked here so that an
// upgrade of the client (or of its google-protobuf) fails loudly, naming the
// package and version, instead of changing what goes on the wire:
// - the client hands setData a base64 string for JSON events;
// - the patched setters exist on the messages it builds and are ours;
// - a message set through a patched setter serialises to exactly the bytes
//   of the same message set through the library's own setter.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
// eslint-disable-next-line no-restricted-imports -- checks the patch of the client's own message classes
import { UUID } from '@eventstore/db-client/generated/shared_pb';
import { PATCHED_MESSAGES, PATCHED_SETTERS, unpatchedSetter } from '../../src/core/protobuf-bytes';

const clientDir = join(dirname(require.resolve('@eventstore/db-client')), '..');
const clientVersion = (JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')) as { version: string }).version;
const pinned = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['@eventstore/db-client'];
const upgrade = (what: string): string =>
  `@eventstore/db-client ${clientVersion}: ${what}; src/core/protobuf-bytes.ts relies on it, re-check the patch against this version`;

interface BytesMessage {
  setId(id: UUID): unknown;
  getMetadataMap(): { set(k: string, v: string): unknown };
  setData(v: Uint8Array | string): unknown;
  setCustomMetadata(v: Uint8Array | string): unknown;
  getData(): Uint8Array | string;
  serializeBinary(): Uint8Array;
}

/** A sample event as the client builds it, its bytes set through `set` (patched or the library's own). */
function sample(Message: new () => unknown, set: (m: BytesMessage, name: (typeof PATCHED_SETTERS)[number], base64: string) => void): BytesMessage {
  const m = new Message() as BytesMessage;
  const id = new UUID();
  id.setString('6f1c2a4e-8b3d-4c5e-9f0a-1b2c3d4e5f60');
  m.setId(id);
  m.getMetadataMap().set('type', 'TagsReported');
  m.getMetadataMap().set('content-type', 'application/json');
  const data = JSON.stringify({ reader: 'dock-1', observations: [{ epc: '3034257BF7194E4000001A85', peakRssi: -55, note: 'é ü 漢 😀' }] });
  set(m, 'setData', Buffer.from(data, 'utf8').toString('base64'));
  set(m, 'setCustomMetadata', Buffer.from(JSON.stringify({ user: 'agent:dock-1' }), 'utf8').toString('base64'));
  return m;
}

describe('@eventstore/db-client protobuf bytes patch (src/core/protobuf-bytes.ts)', () => {
  it('the installed client is the version package.json pins exactly', () => {
    expect(pinned, '@eventstore/db-client must be pinned to an exact version in package.json').to.match(/^\d+\.\d+\.\d+$/);
    expect(clientVersion, upgrade(`installed, package.json pins ${pinned}`)).to.equal(pinned);
  });

  it('the client still hands setData a base64 string for JSON events (what the patch decodes once)', () => {
    for (const file of ['dist/streams/appendToStream/batchAppend.js', 'dist/streams/appendToStream/append.js']) {
      const source = readFileSync(join(clientDir, file), 'utf8');
      expect(source, upgrade(`${file} no longer calls setData(Buffer.from(data, "utf8").toString("base64"))`)).to.include('setData(Buffer.from(data, "utf8").toString("base64"))');
    }
  });

  for (const [name, Message] of Object.entries(PATCHED_MESSAGES)) {
    it(`${name}: the setters are patched, keep the library's, store bytes, and serialise byte for byte as the library does`, () => {
      const proto = Message.prototype as unknown as Record<string, unknown>;
      for (const setter of PATCHED_SETTERS) {
        expect(typeof proto[setter], upgrade(`${name}.prototype.${setter} is not a function`)).to.equal('function');
        expect(typeof unpatchedSetter(proto[setter] as never), upgrade(`${name}.prototype.${setter} is not the patched setter`)).to.equal('function');
      }
      const patched = sample(Message, (m, setter, base64) => m[setter](base64));
      const library = sample(Message, (m, setter, base64) => unpatchedSetter(proto[setter] as never)!.call(m as never, base64));
      // The point of the patch: the bytes are stored decoded, so serialising does not decode base64 again.
      expect(patched.getData(), upgrade(`${name}: the patched setData did not store bytes`)).to.be.instanceOf(Uint8Array);
      expect(Buffer.from(patched.serializeBinary()).equals(Buffer.from(library.serializeBinary())), upgrade(`${name}: the patched setters serialise other bytes than the library's`)).to.equal(true);
      // Bytes given as bytes go through unchanged.
      const raw = new Message() as unknown as BytesMessage;
      raw.setData(Uint8Array.of(1, 2, 3));
      expect([...(raw.getData() as Uint8Array)]).to.deep.equal([1, 2, 3]);
    });
  }
});
