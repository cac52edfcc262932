// The per-minute ingestion line: counts of the period, nothing for a quiet
// period, the partial period flushed at stop.
import { expect } from 'chai';
import { ingestion, startIngestionSummary } from '../../src/core/ingestion-summary';
import type { LogFields, Logger } from '../../src/core/logger';
import { sleep, waitFor } from '../support/wait';

function capturingLogger(lines: Array<{ msg: string; fields: LogFields }>): Logger {
  const push = (msg: string, fields?: LogFields): void => void lines.push({ msg, fields: fields ?? {} });
  const logger: Logger = { debug: push, info: push, warn: push, error: push, child: () => logger };
  return logger;
}


describe('ingestion summary', () => {
  it('given reports, refusals and item changes in a period, then one line with their counts, and none for a quiet period', async () => {
    const lines: Array<{ msg: string; fields: LogFields }> = [];
    const stop = startIngestionSummary(capturingLogger(lines), 50);
    try {
      ingestion.reportAccepted('r1', 40);
      ingestion.reportAccepted('r1', 2);
      ingestion.reportRefused('r1', 'NOT_ASSIGNED', 3);
      ingestion.itemsChanged(7);
      await waitFor('the first ingestion line', () => lines.length === 1, { intervalMs: 10 });
      expect(lines[0]!.msg).to.equal('ingestion');
      expect(lines[0]!.fields).to.include({ reports: 2, observations: 42, refusedReports: 1, itemsChanged: 7 });
      // Three more periods pass without input: no line.
      await sleep(200);
      expect(lines).to.have.length(1);
      ingestion.itemsChanged(3);
      await waitFor('the second ingestion line', () => lines.length === 2, { intervalMs: 10 });
      expect(lines[1]!.fields).to.include({ reports: 0, observations: 0, itemsChanged: 3 });
    } finally {
      stop();
    }
  });

  it('given counts when stopped, then the partial period is logged', () => {
    const lines: Array<{ msg: string; fields: LogFields }> = [];
    const stop = startIngestionSummary(capturingLogger(lines), 60_000);
    ingestion.reportAccepted('r1', 5);
    stop();
    expect(lines.map((l) => l.fields['observations'])).to.deep.equal([5]);
  });
});
