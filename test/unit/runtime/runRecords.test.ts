import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { $ZodError } from 'zod/v4/core';
import type { AgentRunner } from '../../../src/runtime/index.js';
import {
  parseRunnerData,
  parseRunState,
  RUN_RECORD_VERSION,
  RunRecordError,
} from '../../../src/runtime/runRecords.js';

const state = {
  runner: { step: 'a' },
  failures: 0,
  frameId: 'f1',
  steps: 2,
  channel: 'rest',
  turnId: 't1',
};
const record = (data: unknown) => ({ runId: 'r1', jobId: 'j1', agentId: 'helper', data });

describe('run records', () => {
  it('reads a record of this version, and one of the first build without a version as this one', () => {
    expect(parseRunState(record({ ...state, version: RUN_RECORD_VERSION }))).toEqual({
      ...state,
      version: RUN_RECORD_VERSION,
    });
    expect(parseRunState(record(state)).version).toBe(RUN_RECORD_VERSION);
  });

  it('refuses an unknown version, naming the run and the versions', () => {
    let error: unknown;
    try {
      parseRunState(record({ ...state, version: 99 }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RunRecordError);
    expect((error as RunRecordError).name).toBe('RunRecordError');
    expect((error as RunRecordError).runId).toBe('r1');
    expect((error as Error).message).toBe(
      'the record of run r1 cannot be read: version 99 is not supported (this build reads version 1)',
    );
  });

  it('refuses a record of the wrong shape with one line saying what is wrong', () => {
    for (const data of [null, { ...state, steps: -1 }, { ...state, frameId: undefined }]) {
      let error: unknown;
      try {
        parseRunState(record(data));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RunRecordError);
      expect((error as Error).message).toMatch(/^the record of run r1 cannot be read: ✖ /);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).cause).toBeInstanceOf($ZodError);
    }
  });

  it('parses the runner’s own data with its schema, and says when it does not fit', () => {
    const runner = { dataSchema: z.object({ step: z.string() }) } as unknown as AgentRunner<{
      step: string;
    }>;
    expect(parseRunnerData('r1', runner, { step: 'a' })).toEqual({ step: 'a' });
    let error: unknown;
    try {
      parseRunnerData('r1', runner, { step: 1 });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(
      /^the record of run r1 cannot be read: the runner's data does not fit its schema: ✖ [^\n]+ → at step$/,
    );
    expect((error as Error).cause).toBeInstanceOf($ZodError);
  });
});
