// The logger of tests that do not look at logs: every line is dropped.
import type { Logger } from '../../src/core/logger';

export const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };
