import { describe, expect, it } from 'vitest';
import type { OutboundCallContext } from '../../../src/extensions/index.js';
import { PreCallHookError, runPreCallHook } from '../../../src/mcp/index.js';

const CONTEXT: OutboundCallContext = { senderId: 'ada', serverName: 's', toolName: 'echo' };

class Tenant {
  readonly id = 't1';
}

function withoutPrototype(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null), entries);
}

describe('runPreCallHook', () => {
  it('gives the hook a frozen copy of the context and takes the metadata of { metadata }', async () => {
    const seen: OutboundCallContext[] = [];

    const metadata = await runPreCallHook(
      'h.h',
      (context) => {
        seen.push(context);
        return { metadata: { tenant: 't1' } };
      },
      CONTEXT,
    );

    expect(metadata).toEqual({ tenant: 't1' });
    expect(seen).toEqual([CONTEXT]);
    expect(seen[0]).not.toBe(CONTEXT);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it.each([
    ['a plain object', { tenant: 't1' }],
    ['an object with metadata among other keys', { metadata: { a: 1 }, tenant: 't1' }],
    ['an object without a prototype', withoutPrototype({ tenant: 't1' })],
  ])('takes %s as the metadata itself', async (_, answer) => {
    const metadata = await runPreCallHook('h.h', async () => answer, CONTEXT);

    expect(metadata).toBe(answer);
  });

  it('takes metadata without a prototype from { metadata }', async () => {
    const inner = withoutPrototype({ tenant: 't1' });

    const metadata = await runPreCallHook('h.h', () => ({ metadata: inner }), CONTEXT);

    expect(metadata).toBe(inner);
  });

  it.each([
    ['null', null, 'null'],
    ['a Map', new Map([['tenant', 't1']]), 'an instance of Map'],
    ['an instance of a class', new Tenant(), 'an instance of Tenant'],
    [
      'an object whose prototype has no constructor',
      Object.create(withoutPrototype({})),
      'an instance of a class',
    ],
    ['a number', 42, 'a number'],
  ])(
    'aborts the call when the hook returns %s, saying what it returned',
    async (_, answer, what) => {
      const failure = await runPreCallHook('h.h', () => answer as never, CONTEXT).catch(
        (e: unknown) => e,
      );

      expect(failure).toBeInstanceOf(PreCallHookError);
      expect((failure as Error).message).toBe(
        `pre_call_hook h.h returned ${what}; return { metadata: { ... } } or a plain object of metadata`,
      );
    },
  );

  it.each([
    ['null', null, 'null'],
    ['a Date', new Date(0), 'an instance of Date'],
    ['an array', [['tenant', 't1']], 'an array'],
    ['missing', undefined, 'nothing'],
  ])('aborts the call when the metadata is %s', async (_, metadata, what) => {
    const failure = await runPreCallHook('h.h', () => ({ metadata }) as never, CONTEXT).catch(
      (e: unknown) => e,
    );

    expect(failure).toBeInstanceOf(PreCallHookError);
    expect((failure as Error).message).toBe(`pre_call_hook h.h returned metadata that is ${what}`);
  });

  it('aborts the call when the hook throws, keeping what it threw as the cause', async () => {
    const sealed = new Error('vault is sealed');

    const failure = await runPreCallHook(
      'h.h',
      () => {
        throw sealed;
      },
      CONTEXT,
    ).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(PreCallHookError);
    expect(failure).toMatchObject({
      message: 'pre_call_hook h.h threw: vault is sealed',
      cause: sealed,
    });
  });
});
