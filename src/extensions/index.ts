export type { ActionContext, ActionResult, CustomAction } from './actions.js';
export { ActionResultError, loadProjectActions } from './actions.js';
export { exportAt, type ImportedModules } from './moduleExports.js';
export type { OutboundCallContext, OutboundCallResult, PreCallHook } from './outboundCallHook.js';
export { loadPreCallHooks } from './preCallHooks.js';
