import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { keepLine } from '../../src/support/log-export';
import { logFiles, openLogFile } from '../../src/support/log-file';

describe('retained log file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-logfile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rotates past the size bound and keeps at most `keep` files, oldest first, every line whole', async () => {
    const file = await openLogFile(dir, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 10; i++) {
      file.write(`{"n":${i},"pad":"${'x'.repeat(30)}"}`); // 47 bytes a line: a file rolls at its third
      await new Promise((r) => setImmediate(r)); // rotation happens between writes, as in a running service
    }
    await file.close();
    // Old files are removed in the background after each rotation.
    for (let i = 0; i < 50 && logFiles(dir).length > 2; i++) await new Promise((r) => setTimeout(r, 20));
    const files = logFiles(dir);
    expect(files.map((f) => basename(f))).to.deep.equal(['tagtrail.3.log', 'tagtrail.4.log']);
    const lines = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean)).map((l) => (JSON.parse(l) as { n: number }).n);
    expect(lines).to.deep.equal([6, 7, 8, 9]);
  });

  it('exports the files of earlier versions first, as the oldest', async () => {
    mkdirSync(join(dir, 'logs'));
    for (const name of ['tagtrail.log', 'tagtrail.log.2', 'tagtrail.log.1', 'tagtrail.7.log', 'tagtrail.12.log', 'other.log']) writeFileSync(join(dir, 'logs', name), '');
    expect(logFiles(dir).map((f) => basename(f))).to.deep.equal(['tagtrail.log.2', 'tagtrail.log.1', 'tagtrail.log', 'tagtrail.7.log', 'tagtrail.12.log']);
  });

  it('keeps the lines of the range; debug and non-JSON lines only when extended', () => {
    const q = { from: new Date('2026-11-23T01:00:00Z'), to: new Date('2026-11-23T02:00:00Z'), extended: false };
    const line = (time: string, level = 'info') => JSON.stringify({ time, level, msg: 'm' });
    expect(keepLine(line('2026-11-23T01:00:00.000Z'), q)).to.equal(true);
    expect(keepLine(line('2026-11-23T02:00:00.000Z'), q)).to.equal(true);
    expect(keepLine(line('2026-11-23T02:00:00.001Z'), q)).to.equal(false);
    expect(keepLine(line('2026-11-23T00:59:59.999Z'), q)).to.equal(false);
    expect(keepLine(line('2026-11-23T01:30:00.000Z', 'debug'), q)).to.equal(false);
    expect(keepLine(line('2026-11-23T01:30:00.000Z', 'debug'), { ...q, extended: true })).to.equal(true);
    expect(keepLine('not json', q)).to.equal(false);
    expect(keepLine('not json', { ...q, extended: true })).to.equal(true);
    // JSON that is no log object (a number, null) is no log line either.
    expect(keepLine('null', q)).to.equal(false);
    expect(keepLine('42', { ...q, extended: true })).to.equal(true);
  });
});
