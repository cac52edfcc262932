import { expect } from 'chai';
import { createLogger, setLogLevel, setLogSink } from '../../src/core/logger';

// Captures what the loggers write to stdout, stderr and the retained-log sink.
function capture(run: () => void): { out: string[]; err: string[]; file: string[] } {
  const got = { out: [] as string[], err: [] as string[], file: [] as string[] };
  const real = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = ((c: unknown) => (got.out.push(String(c)), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: unknown) => (got.err.push(String(c)), true)) as typeof process.stderr.write;
  setLogSink({ write: (line) => void got.file.push(line) });
  try {
    run();
  } finally {
    process.stdout.write = real.out;
    process.stderr.write = real.err;
    setLogSink(undefined);
  }
  return got;
}

const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('logger', () => {
  let restore: ReturnType<typeof setLogLevel>;
  beforeEach(() => (restore = setLogLevel('info')));
  afterEach(() => setLogLevel(restore));

  it('writes one JSON object a line with time, level, component, message and fields; errors go to stderr', () => {
    const log = createLogger('relay', { role: 'relay' });
    const got = capture(() => {
      log.info('published', { queue: 'q1', count: 3 });
      log.error('broker lost', { err: new Error('ECONNRESET') });
    });
    const [info] = parse(got.out);
    expect(info).to.include({ level: 'info', component: 'relay', role: 'relay', msg: 'published', queue: 'q1', count: 3 });
    expect(Date.parse(String(info?.['time']))).to.be.closeTo(Date.now(), 5000);
    expect(got.out.every((l) => l.endsWith('\n'))).to.equal(true);
    const [error] = parse(got.err);
    expect(error).to.include({ level: 'error', msg: 'broker lost' });
    expect((error?.['err'] as { message: string }).message).to.equal('ECONNRESET');
  });

  it('child loggers extend the component and keep the parent fields', () => {
    const got = capture(() => createLogger('tagtrail', { pid: 1 }).child('engine', { facility: 'F1' }).child('snapshot').warn('slow'));
    expect(parse(got.out)[0]).to.include({ component: 'tagtrail.engine.snapshot', pid: 1, facility: 'F1', level: 'warn' });
  });

  it('the level applies to stdout at once, also to loggers made before; the retained file keeps info and above even when silent', () => {
    const log = createLogger('t');
    const atInfo = capture(() => {
      log.debug('d');
      log.info('i');
    });
    expect(parse(atInfo.out).map((l) => l['msg'])).to.deep.equal(['i']);
    expect(parse(atInfo.file).map((l) => l['msg'])).to.deep.equal(['i']);
    setLogLevel('silent');
    const silent = capture(() => {
      log.debug('d');
      log.warn('w');
    });
    expect(silent.out).to.deep.equal([]);
    expect(parse(silent.file).map((l) => l['msg'])).to.deep.equal(['w']);
    setLogLevel('debug');
    const debug = capture(() => log.debug('d'));
    expect(parse(debug.out).map((l) => l['msg'])).to.deep.equal(['d']);
    expect(parse(debug.file).map((l) => l['msg'])).to.deep.equal(['d']);
  });

  it('masks secret-named fields, also in child bindings', () => {
    const got = capture(() => createLogger('auth', { token: 't-123' }).info('login', { user: { name: 'a', password: 'hunter2' } }));
    expect(got.out[0]).to.not.include('t-123').and.not.include('hunter2');
    expect(parse(got.out)[0]).to.deep.include({ token: '***', user: { name: 'a', password: '***' } });
  });
});
