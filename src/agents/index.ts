// What src/agents offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { READER_COMMANDS_STREAM_PREFIX, commandKeys, completeReaderCommand, issueReaderCommand, markCommandsDelivered, pendingCommandsOf, pendingCommandsOfEach, readerCommandEvents, readerCommandsOf, type CommandResult, type PendingCommand, type ReaderCommandEvent, type ReaderCommandRecord } from './commands';
export { CHECKIN_EVENT_INTERVAL_MS, READER_AGENT_STREAM_PREFIX, TAG_REPORTS_STREAM_PREFIX, agentKeys, isAntennaId, readerAgentEvents, type Observation, TagsReportedV1, type TagsReportedData } from './events';
export { acceptReport, isNewestReport, issueSecret, recordCheckin, ReportRefused, reportHealth, storedSecretDigest, type RefusalReason } from './gateway';
export { type TagReport } from './codecs';
export { secretMatches } from './guard';
export { type AgentHealthEvent } from './health-codes';
export { TagsReportedEpcs, decodeColumns } from './report-columns';
export { isoMsReader } from './iso-time';
export { type Assignment, type AssignmentStatus, type JobsForAgents, type ReportTarget } from './assignment';
