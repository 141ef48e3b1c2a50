import { Message, Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { outgoingMessage, outputOfMessage, outputOfTask } from '../../../src/a2a/index.js';
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
