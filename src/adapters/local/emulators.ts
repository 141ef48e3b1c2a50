import type { AddressInfo } from 'node:net';
import { importOptional } from '../../resilience/index.js';
import { closeDynaliteIterators } from './dynaliteIterators.js';

/** The emulators are optional peers: an install for AWS alone leaves them out. */
const EMULATORS = ['dynalite@4.0.0', 'fauxqs@1.9.2'];
const PURPOSE = 'Running locally (DynamoDB and SQS emulated in process)';

export type { LocalQueues, QueueOptions } from './ensureQueues.js';
export { ensureQueues } from './ensureQueues.js';
export { ensureTable } from './ensureTable.js';

/** An emulator running in this process on a loopback port. */
export interface RunningEmulator {
  /** `http://127.0.0.1:<port>`, for an SDK client's `endpoint`. */
  readonly endpoint: string;
  close(): Promise<void>;
}

/** Starts dynalite on an ephemeral loopback port; `path` persists tables to LevelDB. */
export async function startDynalite(options: { path?: string } = {}): Promise<RunningEmulator> {
  const { default: dynalite } = await importOptional(
    'dynalite',
    PURPOSE,
    EMULATORS,
    () => import('dynalite'),
  );
  closeDynaliteIterators();
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of SDK clients would otherwise hold the close open.
        server.closeIdleConnections();
      }),
  };
}

/**
 * Starts fauxqs (SQS) on an ephemeral loopback port. `startFauxqs` always binds 0.0.0.0 and its
 * `host` option only rewrites queue URLs, so the app is built and bound to loopback here.
 */
export async function startFauxqs(): Promise<RunningEmulator> {
  const { buildApp } = await importOptional('fauxqs', PURPOSE, EMULATORS, () => import('fauxqs'));
  const app = buildApp({ logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = new URL(address);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => app.close(),
  };
}

/** SDK client settings for a local emulator: its endpoint, a region and fake credentials. */
export function localAwsConfig(endpoint: string): {
  region: string;
  endpoint: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
} {
  return {
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}
