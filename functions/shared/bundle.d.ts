/**
 * The assistant bundle the build generates (src/build): the worker's esbuild alias points this
 * name at `.switchboard/registry.ts`, so the Lambda never reads YAML or imports by path.
 */
declare module '@switchboard/bundle' {
  /** The loaded assistant project. */
  export const assistant: import('../../src/assistant/index.js').Assistant;
  /** Every extension module the project names, by the file path its extensions hold. */
  export const modules: Readonly<Record<string, Record<string, unknown>>>;
}
