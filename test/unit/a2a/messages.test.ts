import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { outgoingMessage, outputOfMessage, outputOfTask } from '../../../src/a2a/index.js';
import {
  dataOf,
  dataPart,
  healthCheckMessage,
  phaseOf,
  stateName,
  statusKey,
  textOf,
  textPart,
} from '../../../src/a2a/messages.js';
import { stringAt } from '../../../src/a2a/runData.js';
import type { AgentInput } from '../../../src/assistant/index.js';

const input = (
  metadata: Record<string, unknown> = {},
  userMessage = 'The Touring',
): AgentInput => ({
  id: 'in-1',
  userMessage,
  slots: [
    { name: 'car_model', value: 'Aurora EV', type: 'text' },
    { name: 'trim', value: null, type: 'text' },
  ],
  conversationHistory: 'USER: I want to buy it\nAI: Which trim?',
  events: [],
  metadata,
  timestamp: '2026-12-02T10:00:00.000Z',
});

const task = (json: Record<string, unknown>) =>
  Task.fromJSON({ id: 't-1', contextId: 'c-1', ...json });

describe('outgoingMessage', () => {
  it('sends the text, then the slots and transcript as data, with the ids of the last answer', () => {
    const message = Message.toJSON(
      outgoingMessage(
        input({ sender_id: 'alice', context_id: 'c-1', task_id: 't-1' }),
        'msg-1',
        {},
      ),
    ) as Record<string, unknown>;
    expect(message).toMatchObject({
      messageId: 'msg-1',
      contextId: 'c-1',
      taskId: 't-1',
      role: 'ROLE_USER',
      parts: [
        { text: 'The Touring' },
        {
          data: {
            slots: { car_model: 'Aurora EV', trim: null },
            conversation_history: 'USER: I want to buy it\nAI: Which trim?',
          },
        },
      ],
    });
  });

  it("merges the hook's metadata over the input's, and sends no empty text part", () => {
    const message = outgoingMessage(input({ tenant: 'input', keep: 1 }, ''), 'msg-2', {
      tenant: 'hook',
    });
    expect(message.metadata).toEqual({ tenant: 'hook', keep: 1 });
    expect(message.parts.map((p) => p.content?.$case)).toEqual(['data']);
    expect(message.contextId).toBe('');
    expect(message.taskId).toBe('');
  });

  it('keeps the id of the question it answers to itself', () => {
    const message = outgoingMessage(input({ task_id: 't-1', question_id: 'm-7' }), 'msg-3', {});
    expect(message.taskId).toBe('t-1');
    expect(message.metadata).toEqual({ task_id: 't-1' });
  });
});

describe('outputOfMessage', () => {
  it('completes with the text, the data parts as one result, and the context id', () => {
    const message = Message.fromJSON({
      messageId: 'm',
      contextId: 'c-9',
      role: 'ROLE_AGENT',
      parts: [{ text: 'Hi' }, { data: { greeted: true } }],
    });
    expect(outputOfMessage('in-1', message)).toEqual({
      id: 'in-1',
      status: 'completed',
      responseMessage: 'Hi',
      structuredResults: [[{ greeted: true }]],
      metadata: { context_id: 'c-9' },
    });
  });
});

describe('outputOfTask', () => {
  it('completes with the artifacts: their texts joined, their data one list per artifact', () => {
    const output = outputOfTask(
      'in-1',
      task({
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [
          { artifactId: 'a', parts: [{ text: 'Ordered.' }, { data: { order_id: 'A-1' } }] },
          { artifactId: 'b', parts: [{ text: 'Delivery in May.' }] },
        ],
      }),
    );
    expect(output).toEqual({
      id: 'in-1',
      status: 'completed',
      responseMessage: 'Ordered.\n\nDelivery in May.',
      structuredResults: [[{ order_id: 'A-1' }]],
      metadata: { context_id: 'c-1', task_id: 't-1' },
    });
  });

  it('completes with the status message when there are no artifacts', () => {
    const output = outputOfTask(
      'in-1',
      task({
        status: {
          state: 'TASK_STATE_COMPLETED',
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'All done.' }] },
        },
      }),
    );
    expect(output?.responseMessage).toBe('All done.');
  });

  it.each([['TASK_STATE_INPUT_REQUIRED'], ['TASK_STATE_AUTH_REQUIRED']])(
    'waits for the user on %s, keeping the task to continue',
    (state) => {
      const output = outputOfTask(
        'in-1',
        task({
          status: {
            state,
            message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Which trim?' }] },
          },
        }),
      );
      // The question's id comes back with the answer: the task still showing it has not moved on.
      expect(output).toEqual({
        id: 'in-1',
        status: 'input_required',
        responseMessage: 'Which trim?',
        metadata: { context_id: 'c-1', task_id: 't-1', question_id: 'm' },
      });
    },
  );

  it('names a question without a message by the time of its status', () => {
    const output = outputOfTask(
      'in-1',
      task({ status: { state: 'TASK_STATE_AUTH_REQUIRED', timestamp: '2026-12-02T10:00:00Z' } }),
    );
    expect(output?.metadata).toMatchObject({ question_id: '@2026-12-02T10:00:00Z' });
  });

  it.each([
    ['TASK_STATE_FAILED', 'failed'],
    ['TASK_STATE_REJECTED', 'rejected'],
    ['TASK_STATE_CANCELED', 'canceled'],
  ])('fails on %s, naming the state and what the agent said', (state, name) => {
    const output = outputOfTask(
      'in-1',
      task({
        status: {
          state,
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Out of stock.' }] },
        },
      }),
    );
    expect(output).toMatchObject({
      status: 'fatal_error',
      errorMessage: `the agent's task ended ${name}: Out of stock.`,
    });
  });

  it('has no output while the task is submitted or working, or in a state it does not know', () => {
    for (const state of ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_UNSPECIFIED']) {
      expect(outputOfTask('in-1', task({ status: { state } }))).toBeUndefined();
    }
  });
});

describe('phaseOf', () => {
  it.each([
    [TaskState.TASK_STATE_COMPLETED, 'completed'],
    [TaskState.TASK_STATE_INPUT_REQUIRED, 'input_required'],
    [TaskState.TASK_STATE_AUTH_REQUIRED, 'input_required'],
    [TaskState.TASK_STATE_FAILED, 'failed'],
    [TaskState.TASK_STATE_REJECTED, 'failed'],
    [TaskState.TASK_STATE_CANCELED, 'failed'],
    [TaskState.TASK_STATE_SUBMITTED, 'working'],
    [TaskState.TASK_STATE_WORKING, 'working'],
    [TaskState.TASK_STATE_UNSPECIFIED, 'working'],
    [undefined, 'working'],
  ])('takes state %s as %s', (state, phase) => {
    expect(phaseOf(state)).toBe(phase);
  });
});

describe('stateName', () => {
  it('spells a state as the protocol does, and one it does not know by its number', () => {
    expect(stateName(TaskState.TASK_STATE_INPUT_REQUIRED)).toBe('input-required');
    expect(stateName(TaskState.TASK_STATE_CANCELED)).toBe('canceled');
    expect(stateName(undefined)).toBe('unknown');
    expect(stateName(99 as TaskState)).toBe('99');
  });
});

describe('statusKey', () => {
  it('names a status by its message, else by its time, else not at all', () => {
    const message = { messageId: 'm-1', role: Role.ROLE_AGENT, parts: [] };
    expect(
      statusKey({
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        message: Message.fromJSON(message),
        timestamp: '2026-12-02T10:00:00Z',
      }),
    ).toBe('m-1');
    expect(
      statusKey({
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        message: Message.fromJSON({ ...message, messageId: '' }),
        timestamp: '2026-12-02T10:00:00Z',
      }),
    ).toBe('@2026-12-02T10:00:00Z');
    expect(
      statusKey({ state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }),
    ).toBeUndefined();
    expect(statusKey(undefined)).toBeUndefined();
  });
});

describe('parts', () => {
  it('makes a text part and a JSON data part', () => {
    expect(textPart('Hi')).toStrictEqual({
      content: { $case: 'text', value: 'Hi' },
      metadata: undefined,
      filename: '',
      mediaType: '',
    });
    expect(dataPart({ a: 1 })).toStrictEqual({
      content: { $case: 'data', value: { a: 1 } },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    });
  });

  it('joins the non-blank texts by blank lines, leaving other parts out', () => {
    expect(textOf([textPart('One.'), dataPart({ a: 1 }), textPart('  '), textPart('Two.')])).toBe(
      'One.\n\nTwo.',
    );
    expect(textOf(undefined)).toBe('');
  });

  it('takes each data part as an object, wrapping a value that is not one', () => {
    const parts = Message.fromJSON({
      messageId: 'm',
      role: 'ROLE_AGENT',
      parts: [{ text: 'x' }, { data: { a: 1 } }],
    }).parts;
    const wrapped = (value: unknown) => ({
      content: { $case: 'data' as const, value: value as Record<string, unknown> },
      metadata: undefined,
      filename: '',
      mediaType: '',
    });
    expect(dataOf(parts)).toEqual([{ a: 1 }]);
    expect(dataOf([wrapped([1, 2]), wrapped(null), wrapped(7)])).toEqual([
      { value: [1, 2] },
      { value: null },
      { value: 7 },
    ]);
    expect(dataOf(undefined)).toEqual([]);
  });
});

describe('stringAt', () => {
  it('finds only a non-empty string', () => {
    expect(stringAt({ a: 'x', b: '', c: 3 }, 'a')).toBe('x');
    expect(stringAt({ a: 'x', b: '', c: 3 }, 'b')).toBeUndefined();
    expect(stringAt({ a: 'x', b: '', c: 3 }, 'c')).toBeUndefined();
    expect(stringAt({}, 'a')).toBeUndefined();
  });
});

describe('the messages sent', () => {
  it('sends a user message with no extensions or references, a slot without a value as null', () => {
    const message = outgoingMessage(
      {
        ...input({ context_id: '', task_id: 7 }),
        slots: [{ name: 'trim', value: undefined, type: 'text' }],
      },
      'msg-1',
      {},
    );
    expect(message.role).toBe(Role.ROLE_USER);
    expect(message.extensions).toEqual([]);
    expect(message.referenceTaskIds).toEqual([]);
    expect(message.contextId).toBe('');
    expect(message.taskId).toBe('');
    expect(message.parts[1]?.content).toEqual({
      $case: 'data',
      value: {
        slots: { trim: null },
        conversation_history: 'USER: I want to buy it\nAI: Which trim?',
      },
    });
  });

  it('sends a health check any agent answers, marked as one', () => {
    expect(Message.toJSON(healthCheckMessage('health-1'))).toMatchObject({
      messageId: 'health-1',
      role: 'ROLE_USER',
      parts: [{ text: 'health check' }],
      metadata: { health_check: true },
    });
  });
});

describe('outputs of what the agent says', () => {
  it('completes a message with neither text nor data as bare', () => {
    const message = Message.fromJSON({ messageId: 'm', role: 'ROLE_AGENT', parts: [] });
    expect(outputOfMessage('in-1', message)).toStrictEqual({
      id: 'in-1',
      status: 'completed',
      metadata: {},
    });
  });

  it('passes over a part whose content it does not know, keeping the text and data of the others', () => {
    const message = Message.fromJSON({
      messageId: 'm',
      role: 'ROLE_AGENT',
      parts: [{}, { text: 'Here.' }, { data: { a: 1 } }],
    });
    expect(message.parts[0]?.content).toBeUndefined();

    expect(outputOfMessage('in-1', message)).toStrictEqual({
      id: 'in-1',
      status: 'completed',
      responseMessage: 'Here.',
      structuredResults: [[{ a: 1 }]],
      metadata: {},
    });
  });

  it('completes with the status message’s data after the artifacts’, and its text when they have none', () => {
    const output = outputOfTask(
      'in-1',
      Task.fromJSON({
        id: 't-1',
        status: {
          state: 'TASK_STATE_COMPLETED',
          message: {
            messageId: 'm',
            role: 'ROLE_AGENT',
            parts: [{ text: 'Ordered.' }, { data: { order_id: 'A-1' } }],
          },
        },
        artifacts: [
          { artifactId: 'a', parts: [{ data: { trim: 'Touring' } }] },
          { artifactId: 'b', parts: [{ text: ' ' }] },
        ],
      }),
    );
    expect(output).toStrictEqual({
      id: 'in-1',
      status: 'completed',
      responseMessage: 'Ordered.',
      structuredResults: [[{ trim: 'Touring' }], [{ order_id: 'A-1' }]],
      metadata: { task_id: 't-1' },
    });
  });

  it('completes a task that said nothing as bare', () => {
    expect(outputOfTask('in-1', task({ status: { state: 'TASK_STATE_COMPLETED' } }))).toStrictEqual(
      {
        id: 'in-1',
        status: 'completed',
        metadata: { context_id: 'c-1', task_id: 't-1' },
      },
    );
  });

  it('waits for the user on a question it cannot name, without words', () => {
    expect(
      outputOfTask('in-1', task({ status: { state: 'TASK_STATE_INPUT_REQUIRED' } })),
    ).toStrictEqual({
      id: 'in-1',
      status: 'input_required',
      metadata: { context_id: 'c-1', task_id: 't-1' },
    });
  });

  it('fails naming only the state when the agent said nothing', () => {
    expect(outputOfTask('in-1', task({ status: { state: 'TASK_STATE_FAILED' } }))).toStrictEqual({
      id: 'in-1',
      status: 'fatal_error',
      errorMessage: "the agent's task ended failed",
      metadata: { context_id: 'c-1', task_id: 't-1' },
    });
  });
});
