// Loaded by mocha before any test (.mocharc.json): the service's logger reads
// LOG_LEVEL from the environment at every line, so without this every test
// that builds an app or a logger prints its JSON logs between the results.
// Tests about logging set their own level; child processes get theirs from
// childEnv. Running `LOG_LEVEL=debug npm test` still shows everything.
process.env['LOG_LEVEL'] ??= 'silent';
