import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  it('rotates past the size bound and keeps at most `keep` old files, oldest first', () => {
    const file = openLogFile(dir, 100, 2);
    for (let i = 0; i < 10; i++) file.write(`{"n":${i},"pad":"${'x'.repeat(30)}"}`); // 47 bytes a line: two a file
    file.close();
    const files = logFiles(dir, 2);
    expect(files.map((f) => basename(f))).to.deep.equal(['tagtrail.log.2', 'tagtrail.log.1', 'tagtrail.log']);
    const lines = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean)).map((l) => (JSON.parse(l) as { n: number }).n);
    expect(lines).to.deep.equal([4, 5, 6, 7, 8, 9]);
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
  });
});
