export { timeoutSignal } from './timeoutSignal.js';
