import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ENTRY = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const LOOPBACK_ONLY = fileURLToPath(new URL('./loopbackOnly.mjs', import.meta.url));

export interface ServerEverything {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `@modelcontextprotocol/server-everything` as a child process on a free loopback port, over
 * Streamable HTTP (`/mcp`) or the legacy SSE transport (`/sse`).
 */
export async function startServerEverything(
  transport: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<ServerEverything> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, ENTRY, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`server-everything did not start: ${output}`)),
      15_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    close: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** A loopback port no one listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
