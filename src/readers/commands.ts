// Reader commands (REBOOT, TIME_SYNC, UPGRADE: the agent command channel,
// src/agents/commands.ts) for readers tagtrail connects to itself: the link
// holding the reader takes its pending commands, performs each the way its
// protocol allows and completes it DONE or FAILED with a message, as an
// agent would (docs/readers.md, "Reader commands").
import type { CommandResult, PendingCommand } from '../agents';

export interface CommandOutcome {
  readonly result: CommandResult;
  readonly message: string;
}

export const done = (message: string): CommandOutcome => ({ result: 'DONE', message });
export const failed = (message: string): CommandOutcome => ({ result: 'FAILED', message });

/**
 * LLRP (EPCglobal LLRP 1.0.1 and 1.1) has no message to reboot a reader, set
 * its clock or install software: each command is refused with why.
 */
export function llrpCommandOutcome(c: Pick<PendingCommand, 'type'>): CommandOutcome {
  switch (c.type) {
    case 'REBOOT':
      return failed('LLRP has no reboot message: reboot the reader from its own management interface (web UI, RShell or the IoT interface)');
    case 'TIME_SYNC':
      return failed('LLRP cannot set the reader clock: configure NTP on the reader (LLRP reports carry its own UTC timestamps)');
    case 'UPGRADE':
      return failed('LLRP has no software upgrade: install the firmware from the reader\'s own management interface');
  }
}
