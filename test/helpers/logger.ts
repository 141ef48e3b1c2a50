import type { Logger } from '../../src/resilience/index.js';

/** A logger that drops every line; spread it under the methods a test records. */
export const SILENT_LOGGER: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
