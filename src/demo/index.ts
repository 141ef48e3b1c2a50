export { DemoModel } from './demoModel.js';
export { type DemoPeers, startDemoPeers } from './demoPeers.js';
export { answer, type McpHost, type McpHostOptions, readBody, startMcpHost } from './mcpHost.js';
export { DEMO_SERVERS } from './mcpServers.js';
