export type { Diagnostic, IgnoredKey, Note } from './diagnostics.js';
export { ConfigError, formatDiagnostic, relativeFile } from './diagnostics.js';
export { projectEnvironment } from './env.js';
export type { Environment } from './interpolate.js';
export type { LoadOptions, LoadResult } from './loadAssistant.js';
export { loadAssistant } from './loadAssistant.js';
export type { ProjectPathOptions, ProjectPaths } from './projectPaths.js';
export { resolveProjectPaths } from './projectPaths.js';
export { isDirectory, isFile, yamlFilesUnder } from './projectTree.js';
