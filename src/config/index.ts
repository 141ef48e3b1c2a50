export type { Diagnostic, IgnoredKey } from './diagnostics.js';
export { ConfigError, formatDiagnostic, relativeFile } from './diagnostics.js';
export { projectEnvironment } from './env.js';
export type { Environment } from './interpolate.js';
export type { LoadOptions, LoadResult } from './loadAssistant.js';
export { loadAssistant } from './loadAssistant.js';
