import { type ChildProcess, spawn } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tempDirs.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `switchboard run` as a child process, on an ephemeral port. */
export interface RunningSwitchboard {
  readonly url: string;
  readonly pid: number;
  readonly stderr: () => string;
  readonly stdout: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startSwitchboard(
  args: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = {},
  cwd = REPO_ROOT,
): Promise<RunningSwitchboard> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/switchboard.js'), 'run', '--port', '0', ...args],
    {
      cwd,
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    err += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running for nobody: it may hold ports another run needs.
      child.kill('SIGKILL');
      reject(new Error(`no listening line after 30 s:\n${out}\n${err}`));
    }, 30_000);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`switchboard exited early:\n${out}\n${err}`));
    });
  });
  return {
    url,
    pid: child.pid ?? 0,
    stdout: () => out,
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

/** `switchboard run` as a child process that is expected to exit by itself. */
export async function runUntilExit(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/switchboard.js'), 'run', '--port', '0', ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Sends a message through the REST channel and returns the reply texts. */
export async function say(
  url: string,
  sender: string,
  message: string,
): Promise<{ text?: string; buttons?: { payload: string }[] }[]> {
  const response = await fetch(`${url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  if (response.status !== 200)
    throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { text?: string; buttons?: { payload: string }[] }[];
}

/** A loopback port free at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Options for `switchboard run --demo-peers` that serve the example project's demo peers on free
 * loopback ports instead of its fixed ones (8931-8934, 8941): its endpoints and sub agents,
 * copied with the ports changed. Runs in parallel, in this checkout or another, do not collide.
 */
export async function demoPeersOnFreePorts(): Promise<string[]> {
  const dir = await tempDir('switchboard-example-');
  const ports = new Map<string, number>();
  const moved = async (text: string): Promise<string> => {
    for (const [, port] of text.matchAll(/127\.0\.0\.1:(\d+)/g)) {
      if (port && !ports.has(port)) ports.set(port, await freePort());
    }
    return text.replace(/127\.0\.0\.1:(\d+)/g, (_, port: string) => `127.0.0.1:${ports.get(port)}`);
  };
  const endpoints = path.join(dir, 'endpoints.yml');
  await writeFile(
    endpoints,
    await moved(await readFile(path.join(REPO_ROOT, 'endpoints.yml'), 'utf8')),
  );
  const subAgents = path.join(dir, 'sub_agents');
  await cp(path.join(REPO_ROOT, 'sub_agents'), subAgents, { recursive: true });
  const shopping = path.join(subAgents, 'car_shopping_agent');
  const card = path.join(shopping, 'agent_card.json');
  await writeFile(card, await moved(await readFile(card, 'utf8')));
  const config = path.join(shopping, 'config.yml');
  const agent = await readFile(config, 'utf8');
  await writeFile(config, agent.replace(/agent_card: .*/, `agent_card: ${card}`));
  return ['--demo-peers', '--endpoints', endpoints, '--sub-agents', subAgents];
}

/**
 * `switchboard run` with the demo peers on free ports. A port found free can be taken by another
 * test before the peers bind it: a start that fails for a port in use is tried again on new
 * ports, three times at most.
 */
export async function startDemoSwitchboard(
  args: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<RunningSwitchboard> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSwitchboard([...(await demoPeersOnFreePorts()), ...args], env);
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE|port is in use/.test(String(error))) throw error;
    }
  }
}
