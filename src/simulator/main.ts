// `npm run simulate -- <options>`: plays reader agents against tagtrail.
// Logs are structured JSON on stdout (LOG_LEVEL applies); progress lines
// and the summary go to stderr as text (--progress text) or into the log.
import * as E from 'fp-ts/Either';
import { loadLogLevel } from '../config';
import { formatEnvError } from '../core/env';
import { createLogger, setLogLevel } from '../core/logger';
import { OptionsError, parseOptions, USAGE } from './options';
import { runSimulation, runSummaryLines } from './run';
import { ScenarioError } from './scenario';

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.stderr.isTTY === true);
  } catch (err) {
    if (err instanceof OptionsError) {
      process.stderr.write(`simulate: ${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const level = loadLogLevel(process.env);
  if (E.isLeft(level)) {
    process.stderr.write(`simulate: ${level.left.map(formatEnvError).join('; ')}\n`);
    return 2;
  }
  setLogLevel(level.right);
  const log = createLogger('simulator');
  const abort = new AbortController();
  const onSignal = (): void => {
    if (abort.signal.aborted) process.exit(130); // second Ctrl-C: leave at once
    log.info('stopping (signal); Ctrl-C again to leave at once');
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const summary = await runSimulation(options, { log, signal: abort.signal });
    log.info('summary', { ...summary });
    if (options.progress === 'text') process.stderr.write(`${runSummaryLines(summary).join('\n')}\n`);
    return summary.totals.reportsAccepted > 0 || summary.totals.checkins > 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof ScenarioError) {
      process.stderr.write(`simulate: ${err.message}\n`);
      return 2;
    }
    log.error('simulation failed', { err: err as Error });
    process.stderr.write(`simulate: ${(err as Error).message}\n`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`simulate: ${String(err)}\n`);
    process.exit(1);
  },
);
