import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  isPushToken,
  PUSH_KEY_SECRET,
  PUSH_ROUTE,
  PushFormatError,
  parsePushNotification,
  pushToken,
  pushUrl,
} from '../../../src/a2a/index.js';

const KEY = 'k'.repeat(48);

describe('push URLs and tokens', () => {
  it('puts the conversation and run under the base URL, encoded, whatever slashes the base ends with', () => {
    expect(pushUrl('https://sb.example.com/', 'alice', 'run-1')).toBe(
      'https://sb.example.com/a2a/push/alice/run-1',
    );
    expect(pushUrl('https://sb.example.com/prod//', 'a/b c', 'run-1')).toBe(
      'https://sb.example.com/prod/a2a/push/a%2Fb%20c/run-1',
    );
    expect(pushUrl('https://sb.example.com', 'alice', 'run/1?x')).toBe(
      'https://sb.example.com/a2a/push/alice/run%2F1%3Fx',
    );
  });

  it('accepts only the token of the same key, conversation and run', () => {
    const token = pushToken(KEY, 'alice', 'run-1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isPushToken(KEY, 'alice', 'run-1', token)).toBe(true);
    expect(isPushToken(KEY, 'alice', 'run-2', token)).toBe(false);
    expect(isPushToken(KEY, 'bob', 'run-1', token)).toBe(false);
    expect(isPushToken('another key', 'alice', 'run-1', token)).toBe(false);
    expect(isPushToken(KEY, 'alice', 'run-1', `${token}x`)).toBe(false);
    expect(isPushToken(KEY, 'alice', 'run-1', '')).toBe(false);
    expect(isPushToken(KEY, 'alice', 'run-1', undefined)).toBe(false);
  });

  it('registers URLs of the receiver’s route, and signs with the secret the deployment names', () => {
    const route = PUSH_ROUTE.replace('{conversation}', 'alice').replace('{run}', 'run-1');
    expect(pushUrl('https://sb.example.com', 'alice', 'run-1')).toBe(
      `https://sb.example.com${route}`,
    );
    expect(PUSH_KEY_SECRET).toBe('SWITCHBOARD_A2A_PUSH_KEY');
  });

  it('derives the same token as before, so that runs registered before a deploy are still heard', () => {
    expect(pushToken(KEY, 'alice', 'run-1')).toBe('V3VivTQx4_GEPyYiCqQdaWImxg6Bd-97YztbLHAy8t8');
  });

  it('keeps conversation and run apart: no two pairs share a token by joining differently', () => {
    expect(pushToken(KEY, 'a\nb', 'run')).not.toBe(pushToken(KEY, 'a', 'b\nrun'));
  });
});

describe('parsePushNotification', () => {
  it('reads an A2A 1.0 status update with what the agent said', () => {
    expect(
      parsePushNotification({
        statusUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          status: {
            state: 'TASK_STATE_WORKING',
            message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: 'Checking…' }] },
          },
        },
      }),
    ).toEqual({
      task_id: 't-1',
      state: TaskState.TASK_STATE_WORKING,
      message: { id: 'm-1', text: 'Checking…' },
    });
  });

  it('reads an A2A 1.0 task and an artifact update, which carry no message', () => {
    expect(
      parsePushNotification({
        task: { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } },
      }),
    ).toEqual({ task_id: 't-1', state: TaskState.TASK_STATE_COMPLETED });
    expect(
      parsePushNotification({
        artifactUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
        },
      }),
    ).toEqual({ task_id: 't-1' });
  });

  it('reads an A2A 1.0 message as news of its task only', () => {
    expect(
      parsePushNotification({
        message: { taskId: 't-1', messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] },
      }),
    ).toStrictEqual({ task_id: 't-1' });
  });

  it('leaves out a state it cannot name and a status message without words', () => {
    expect(
      parsePushNotification({
        statusUpdate: {
          taskId: 't-1',
          contextId: 'c-1',
          status: {
            state: 'TASK_STATE_UNSPECIFIED',
            message: { messageId: 'm-1', role: 'ROLE_AGENT', parts: [{ text: ' ' }] },
          },
        },
      }),
    ).toStrictEqual({ task_id: 't-1' });
  });

  it('reads A2A 0.3 notifications: a task and a status update', () => {
    expect(
      parsePushNotification({
        kind: 'task',
        id: 't-1',
        contextId: 'c-1',
        status: { state: 'completed' },
      }),
    ).toEqual({ task_id: 't-1', state: TaskState.TASK_STATE_COMPLETED });
    expect(
      parsePushNotification({
        kind: 'status-update',
        taskId: 't-1',
        contextId: 'c-1',
        final: false,
        status: {
          state: 'working',
          message: {
            kind: 'message',
            messageId: 'm-2',
            role: 'agent',
            parts: [{ kind: 'text', text: 'Still checking' }],
          },
        },
      }),
    ).toEqual({
      task_id: 't-1',
      state: TaskState.TASK_STATE_WORKING,
      message: { id: 'm-2', text: 'Still checking' },
    });
  });

  it.each([
    ['an array', [], /^the body must be a JSON object$/],
    ['null', null, /^the body must be a JSON object$/],
    ['a number', 7, /^the body must be a JSON object$/],
    [
      'an object with nothing known',
      { hello: 'world' },
      /^the body carries no task, status or artifact update$/,
    ],
    [
      'a task without an id',
      { task: { contextId: 'c', status: {} } },
      /^the notification names no task$/,
    ],
    [
      'a 0.3 event of an unknown kind',
      { kind: 'surprise', taskId: 't' },
      /^the body is not an A2A notification \(Unrecognized v0\.3 push notification body: .*\)$/,
    ],
    ['a message of no task', { message: { messageId: 'm', role: 'ROLE_AGENT' } }, /names no task/],
  ])('refuses %s with a reason', (_name, body, reason) => {
    expect(() => parsePushNotification(body)).toThrow(PushFormatError);
    expect(() => parsePushNotification(body)).toThrow(reason);
  });
});
