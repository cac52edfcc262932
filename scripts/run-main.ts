// How an npm-run command ends: with the exit code its main answers, or 1
// (and the error on stderr) when main itself fails.
export function runMain(main: (argv: readonly string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
