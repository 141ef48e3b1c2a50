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

/**
 * The A2A server function's part of the project (src/build writes it beside the registry): its
 * `a2a_server` and the card's name and skills, without the flows or the project's modules.
 */
declare module '@switchboard/a2a-server' {
  export const a2aServer: import('../../src/assistant/index.js').A2AServerSettings | undefined;
  export const card: import('../../src/a2aServer/index.js').CardSource;
}
