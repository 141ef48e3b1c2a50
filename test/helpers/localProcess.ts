import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
): Promise<RunningSwitchboard> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/switchboard.js'), 'run', '--port', '0', ...args],
    {
      cwd: REPO_ROOT,
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
    const timer = setTimeout(
      () => reject(new Error(`no listening line after 30 s:\n${out}\n${err}`)),
      30_000,
    );
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
