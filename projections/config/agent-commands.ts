// Projects the reader command streams (`readerCommands-<reader>`) into the
// pending commands read model check-in answers from (keys in
// src/agents/commands.ts: commandKeys). Part of the config projection, so
// issuing and completing wait for it like any configuration command, and the
// checkpoint is written in the same MULTI.
import type { ConfigProjectionPart } from './part';
import { commandKeys, READER_COMMANDS_STREAM_PREFIX, readerCommandEvents, type PendingCommand, type ReaderCommandEvent } from '../../src/agents';

export const readerCommandsPart: ConfigProjectionPart = {
  streamPrefix: READER_COMMANDS_STREAM_PREFIX,
  codecs: readerCommandEvents,
  apply(tx, recorded, keys) {
    const reader = recorded.streamId.slice(READER_COMMANDS_STREAM_PREFIX.length);
    const k = commandKeys(keys);
    const event = recorded as unknown as ReaderCommandEvent;
    switch (event.type) {
      case 'ReaderCommandIssued': {
        const d = event.data;
        const pending: PendingCommand = { id: d.commandId, type: d.type, args: d.args, issuedAt: d.issuedAt, seq: Number(recorded.revision) };
        tx.hSet(k.pending(reader), d.commandId, JSON.stringify(pending));
        break;
      }
      case 'ReaderCommandDelivered':
        tx.hSet(k.delivered(reader), event.data.commandId, event.data.at);
        break;
      case 'ReaderCommandCompleted':
        tx.hDel(k.pending(reader), event.data.commandId);
        tx.hDel(k.delivered(reader), event.data.commandId);
        break;
    }
  },
};
