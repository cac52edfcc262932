// Loaded by mocha before any test (.mocharc.json): without it every test that
// builds an app or a logger prints its JSON logs between the results. Tests
// about logging set their own level (setLogLevel returns the one to restore);
// child processes get theirs from childEnv. `LOG_LEVEL=debug npm test` still
// shows everything.
import * as E from 'fp-ts/Either';
import { loadLogLevel, type ConfigLogLevel } from '../../src/config';
import { setLogLevel } from '../../src/core/logger';

// Child processes inherit the environment: quiet too unless asked.
process.env['LOG_LEVEL'] ??= 'silent';
setLogLevel(E.getOrElse((): ConfigLogLevel => 'silent')(loadLogLevel(process.env)));
