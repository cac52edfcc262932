// Projects AgentSecretIssued (`readerAgent-<reader>`) into the hash
// `<prefix>v1:agents:secrets` (reader -> SHA-256 hex), which the agent guard
// reads. Part of the config projection, so issuing waits for it like any
// configuration command. AgentCheckedIn on the same streams is not projected
// here (reader health does).
import type { ConfigProjectionPart } from './part';
import { agentKeys, READER_AGENT_STREAM_PREFIX, readerAgentEvents } from '../../src/agents';

export const agentSecretsPart: ConfigProjectionPart = {
  streamPrefix: READER_AGENT_STREAM_PREFIX,
  codecs: { AgentSecretIssued: readerAgentEvents.AgentSecretIssued },
  apply(tx, event, keys) {
    const data = event.data as { reader: string; secretSha256: string };
    tx.hSet(agentKeys(keys).secrets, data.reader, data.secretSha256);
  },
};
