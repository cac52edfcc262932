'use strict';
// Mocha's spec output plus one closing line in the plain "N passed, N failed"
// form, so CI tooling that reads closing lines can count the tests.
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class TagtrailReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || {};
      const skipped = s.pending ? `, ${s.pending} skipped` : '';
      process.stdout.write(`${s.passes || 0} passed, ${s.failures || 0} failed${skipped}\n`);
    });
  }
}
module.exports = TagtrailReporter;
