// How an npm-run command ends: with the exit code its main answers, or 1
// (and the error on stderr) when main itself fails. process.exit drops what
// is still queued on a pipe (the last log lines, the result), so the exit
// waits until stdout and stderr have taken everything written before it.
function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = (): void => {
    pending--;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

export function runMain(main: (argv: readonly string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(exitAfterFlush, (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    exitAfterFlush(1);
  });
}
