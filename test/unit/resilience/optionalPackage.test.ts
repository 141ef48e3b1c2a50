import { describe, expect, it } from 'vitest';
import { importOptional, OptionalPackageError } from '../../../src/resilience/index.js';

/** The error Node's loader throws for a package that is not installed. */
function notFound(name: string, from = '/app/src/x.ts'): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from ${from}`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('importOptional', () => {
  it('answers with the module when the package is installed', async () => {
    expect(await importOptional('fauxqs', 'Running locally', ['fauxqs@1.9.2'], async () => 7)).toBe(
      7,
    );
  });

  it('names what needs a missing package and the command that installs it', async () => {
    const failure = await importOptional(
      'fauxqs',
      'Running locally (DynamoDB and SQS emulated in process)',
      ['dynalite@4.0.0', 'fauxqs@1.9.2'],
      async () => {
        throw notFound('fauxqs');
      },
    ).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(OptionalPackageError);
    expect((failure as OptionalPackageError).code).toBe('OPTIONAL_PACKAGE_MISSING');
    expect((failure as Error).message).toBe(
      'Running locally (DynamoDB and SQS emulated in process) needs the package fauxqs, which is not installed: npm install --save-dev dynalite@4.0.0 fauxqs@1.9.2',
    );
  });

  it('counts a package missing deeper down, as express is under the demo host', async () => {
    const failure = await importOptional(
      'express',
      'The demo A2A agent',
      ['express@5.3.0'],
      async () => {
        throw notFound('express', '/app/node_modules/@a2a-js/sdk/dist/server/express/index.js');
      },
    ).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(OptionalPackageError);
  });

  it('does not take a package missing under the optional one for the optional one', async () => {
    const under = notFound('level', '/app/node_modules/dynalite/db/index.js');

    await expect(
      importOptional('dynalite', 'x', ['dynalite@4.0.0'], async () => Promise.reject(under)),
    ).rejects.toBe(under);
  });

  it('passes on any other failure as it is, a missing module of another name included', async () => {
    const broken = new Error('the module threw as it loaded');
    const other = notFound('something-else');

    await expect(
      importOptional('fauxqs', 'x', [], async () => Promise.reject(broken)),
    ).rejects.toBe(broken);
    await expect(importOptional('fauxqs', 'x', [], async () => Promise.reject(other))).rejects.toBe(
      other,
    );
  });
});
