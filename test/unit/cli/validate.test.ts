import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { BASE_PROJECT, writeProject } from '../../helpers/project.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function captureIo(cwd: string): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env: {}, stdout, stderr };
}

describe('switchboard validate', () => {
  it('exits 0 with a one-line summary for a valid project', async () => {
    const io = captureIo(root);
    expect(await main(['validate'], io)).toBe(0);
    expect(io.stdout).toEqual([
      'valid: 6 flows, 12 slots, 13 responses, 3 sub agents, 4 MCP servers',
    ]);
  });

  it('exits 1 and prints every error relative to the working directory', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'sub_agents/helper/config.yml':
        'agent:\n  name: helper\n  description: x\nconfiguration:\n  timezone: Mars/Base\n  tool_timeout: -1\nconnections:\n  mcp_servers:\n    - name: tools\n',
    });
    const io = captureIo(path.dirname(dir));
    expect(await main(['validate', '--project', path.basename(dir)], io)).toBe(1);
    const file = path.join(path.basename(dir), 'sub_agents/helper/config.yml');
    expect(io.stderr).toEqual([
      `${file}:5:13: configuration.timezone "Mars/Base" is not an IANA time zone (e.g. "Europe/Berlin")`,
      `${file}:6:17: configuration.tool_timeout must be greater than 0`,
      '2 error(s); the assistant was not loaded',
    ]);
  });

  it('reads sub agents from --sub-agents', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'sub_agents/helper/config.yml': undefined,
      'agents/helper/config.yml': BASE_PROJECT['sub_agents/helper/config.yml'],
    });
    const io = captureIo(dir);
    expect(await main(['validate', '--sub-agents', 'agents'], io)).toBe(0);
    expect(io.stdout[0]).toContain('1 sub agents');
  });

  it.each([
    [['validate', '--bogus']],
    [['validate', '--project']],
    [['validate', '--project', 'no/such/dir']],
    [['frobnicate']],
    [[]],
  ])('exits 2 on a usage error: %j', async (argv) => {
    const io = captureIo(root);
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/usage: switchboard/);
  });
});
