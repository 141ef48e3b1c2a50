export type { OutboundCallContext, OutboundCallResult, PreCallHook } from './outboundCallHook.js';
