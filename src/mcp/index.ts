export { UNAVAILABLE_TOOLS } from './unavailableTools.js';
