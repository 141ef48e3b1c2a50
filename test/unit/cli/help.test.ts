import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';

// Help is answered without loading any command: importing one of them here fails the test.
vi.mock('../../../src/cli/run.js', () => {
  throw new Error('run.js was loaded');
});
vi.mock('../../../src/cli/test.js', () => {
  throw new Error('test.js was loaded');
});
vi.mock('../../../src/cli/validate.js', () => {
  throw new Error('validate.js was loaded');
});
vi.mock('../../../src/cli/init.js', () => {
  throw new Error('init.js was loaded');
});
vi.mock('../../../src/cli/shell.js', () => {
  throw new Error('shell.js was loaded');
});

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), cwd: '/', env: {} },
  };
}

describe('switchboard help', () => {
  it('lists the commands on --help, exit 0, loading none of them', async () => {
    const { out, io } = captured();

    expect(await main(['--help'], io)).toBe(0);

    expect(out.join('\n')).toMatch(/^usage: switchboard <command> \[options\]/);
    for (const name of ['init', 'run', 'validate', 'test'])
      expect(out.join('\n')).toContain(`  ${name} `);
  });

  it.each([
    ['init', ['[DIR]', '--force']],
    ['shell', ['--url URL', '--sender ID', '--demo-peers', '--peers FILE', '/inspect']],
    ['run', ['--port N', '--state DIR', '--demo-peers', '--peers FILE', '--project DIR']],
    ['validate', ['FILE:LINE:COL', '--project DIR']],
    ['test', ['--junit-xml FILE', '--fail-fast', '--demo-peers', '--peers FILE', '--no-commands']],
  ])('answers %s --help with its options, exit 0', async (name, options) => {
    for (const flag of ['--help', '-h']) {
      const { out, err, io } = captured();

      expect(await main([name, '--port', '1', flag], io)).toBe(0);

      expect(out[0]).toMatch(new RegExp(`^usage: switchboard ${name}`));
      for (const option of options) expect(out[0]).toContain(option);
      expect(err).toEqual([]);
    }
  });

  it('names the optional package a command misses and how to install it, exit 1', async () => {
    const { OptionalPackageError } = await import('../../../src/resilience/index.js');
    const { err, io } = captured();
    vi.doMock('../../../src/cli/validate.js', () => ({
      validateCommand: async () => {
        throw new OptionalPackageError(
          'Running locally needs the package fauxqs, which is not installed: npm install --save-dev fauxqs@1.9.2',
        );
      },
    }));

    expect(await main(['validate'], io)).toBe(1);

    expect(err).toEqual([
      'switchboard validate: Running locally needs the package fauxqs, which is not installed: npm install --save-dev fauxqs@1.9.2',
    ]);
    vi.doUnmock('../../../src/cli/validate.js');
  });

  it('names an unknown command, exit 2', async () => {
    const { err, io } = captured();

    expect(await main(['serve'], io)).toBe(2);

    expect(err[0]).toMatch(/^switchboard: unknown command "serve"/);
  });
});
