import type { OutboundCallContext, PreCallHook } from '../extensions/index.js';
import { PreCallHookError } from './errors.js';
import { failureReason } from './reason.js';

/**
 * Runs a `pre_call_hook` with a frozen copy of the call's context and returns its metadata. It
 * may return `{ metadata }` or the metadata object itself, synchronously or not; anything else,
 * or an exception, aborts the call with `PreCallHookError`.
 */
export async function runPreCallHook(
  name: string,
  hook: PreCallHook,
  context: OutboundCallContext,
): Promise<Readonly<Record<string, unknown>>> {
  let answer: unknown;
  try {
    answer = await hook(Object.freeze({ ...context }));
  } catch (error) {
    throw new PreCallHookError(name, `threw: ${failureReason(error)}`, { cause: error });
  }
  if (!isPlainObject(answer)) {
    throw new PreCallHookError(
      name,
      `returned ${describe(answer)}; return { metadata: { ... } } or a plain object of metadata`,
    );
  }
  const keys = Object.keys(answer);
  if (keys.length === 1 && keys[0] === 'metadata') {
    if (!isPlainObject(answer.metadata)) {
      throw new PreCallHookError(name, `returned metadata that is ${describe(answer.metadata)}`);
    }
    return answer.metadata;
  }
  return answer;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'a class'}`;
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}
