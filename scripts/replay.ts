// `npm run replay -- engine [--from <position>] [--partition <n>]`: runs the
// item engine again over the event log into a scratch output and compares
// its decisions with the recorded ones (docs/item-processing.md, "Replaying
// the engine"). Reads only: nothing is appended, Redis is not used. Needs the
// event store (EVENTSTORE_CONNECTION_STRING, else the running service's
// embedded store at EVENTSTORE_HOST:EVENTSTORE_PORT). Exit 0: identical;
// 3: a difference (the first one printed); 2: usage; 1: failure.
import { EventStoreDBClient } from '@eventstore/db-client';
import { eventStoreConnectionString, loadConfigOrThrow } from '../src/config';
import { createLogger, setLogLevel } from '../src/core/logger';
import { replayEngine, type ReplayResult } from '../src/engine/replay';
import { runMain } from './run-main';

const USAGE = 'usage: npm run replay -- engine [--from <$all commit position>] [--partition <n>] [--configuration-of-now]\n';

export interface ReplayArgs {
  readonly from: bigint | undefined;
  readonly partition: number;
  /** Every job with today's configuration instead of its time's (replay.ts). */
  readonly configurationOfNow: boolean;
}

/** The arguments, or the usage text (with what was wrong) to print. */
export function parseReplayArgs(argv: readonly string[]): ReplayArgs | string {
  if (argv[0] !== 'engine') return `give what to replay (engine)\n${USAGE}`;
  let from: bigint | undefined;
  let partition = 0;
  let configurationOfNow = false;
  for (let i = 1; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--configuration-of-now') {
      configurationOfNow = true;
      i--;
      continue;
    }
    if (value === undefined || !/^\d+$/.test(value)) return `${flag ?? ''} needs a whole number\n${USAGE}`;
    if (flag === '--from') from = BigInt(value);
    else if (flag === '--partition') partition = Number(value);
    else return `unknown option ${JSON.stringify(flag)}\n${USAGE}`;
  }
  return { from, partition, configurationOfNow };
}

/** What the replay prints: a summary line, and the first difference when there is one. */
export function replaySummary(r: ReplayResult): string {
  const from = r.from === undefined ? 'the start of the log' : `output revision ${r.from.revision} (input ${r.from.inputPosition})`;
  const head = `replayed ${r.inputEvents} input events from ${from} to input ${r.until ?? '(nothing recorded)'} in ${r.seconds} s: ${r.decisions} decisions identical`;
  if (r.difference === undefined) return `${head}; the recorded output is reproduced exactly\n`;
  const d = r.difference;
  return `${head}; FIRST DIFFERENCE at decision ${d.index}:\n  recorded: ${JSON.stringify(d.recorded ?? null)}\n  replayed: ${JSON.stringify(d.replayed ?? null)}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseReplayArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(args);
    return 2;
  }
  const config = loadConfigOrThrow(process.env);
  setLogLevel(config.logLevel);
  const logger = createLogger('replay');
  const count = config.enginePartitions.count;
  if (args.partition >= count) {
    process.stderr.write(`partition ${args.partition} does not exist: ENGINE_PARTITIONS is ${count}\n${USAGE}`);
    return 2;
  }
  const client = EventStoreDBClient.connectionString(eventStoreConnectionString(config));
  let lastReport = Date.now();
  try {
    const result = await replayEngine({
      client,
      logger,
      partition: { index: args.partition, count },
      ...(args.from === undefined ? {} : { from: args.from }),
      configuration: args.configurationOfNow ? 'now' : 'log',
      onProgress: (events, decisions) => {
        if (Date.now() - lastReport < 5000) return;
        lastReport = Date.now();
        process.stderr.write(`... ${events} input events, ${decisions} decisions compared\n`);
      },
    });
    process.stdout.write(replaySummary(result));
    return result.difference === undefined ? 0 : 3;
  } finally {
    await client.dispose();
  }
}

if (require.main === module) runMain(main);
