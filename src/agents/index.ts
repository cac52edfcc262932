// What the agents slice offers to other slices: the reader command channel
// (for connectors that carry commands to readers without an agent).
export { completeReaderCommand, markCommandsDelivered, pendingCommandsOf, type PendingCommand } from './commands';
export type { CommandResult } from './commands';
