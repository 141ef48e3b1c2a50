import { Message, Task, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { stillAsking, verdictOf } from '../../../src/a2a/outcomes.js';
import { sawState, statusMessage, taskProgress } from '../../../src/a2a/progress.js';
import type { A2ARunData } from '../../../src/a2a/runData.js';

const run = (extra: Partial<A2ARunData> = {}): A2ARunData => ({
  agentId: 'shop',
  messageId: 'ours',
  polls: 0,
  push: false,
  shown: [],
  ...extra,
});

const agent = (messageId: string, text: string) => ({
  messageId,
  role: 'ROLE_AGENT',
  parts: [{ text }],
});
const user = (messageId: string) => ({ messageId, role: 'ROLE_USER', parts: [{ text: 'hi' }] });

const task = (state: string, history: unknown[], message?: unknown) =>
  Task.fromJSON({
    id: 't-1',
    contextId: 'c-1',
    status: { state, ...(message ? { message } : {}) },
    history,
  });

const texts = (said: { messages: { text?: string }[] }) => said.messages.map((m) => m.text);

describe('taskProgress', () => {
  it('shows what the agent said after the run’s message, in order, its question before it not', () => {
    const said = taskProgress(
      run(),
      task(
        'TASK_STATE_WORKING',
        [
          user('first'),
          agent('q', 'Which trim?'),
          user('ours'),
          agent('s1', 'One.'),
          agent('s2', 'Two.'),
        ],
        agent('s2', 'Two.'),
      ),
      false,
    );
    expect(texts(said)).toEqual(['One.', 'Two.']);
    expect(said.run.shown).toEqual(['s1', 's2']);
    expect(said.messages[0]?.metadata).toEqual({ intermediate: true, agent_id: 'shop' });
  });

  it('shows only what follows the newest message already shown', () => {
    const history = [user('ours'), agent('s1', 'One.'), agent('s2', 'Two.'), agent('s3', 'Three.')];
    // s1 was forgotten by the bounded list, but s2 was shown after it.
    const said = taskProgress(run({ shown: ['s2'] }), task('TASK_STATE_WORKING', history), false);
    expect(texts(said)).toEqual(['Three.']);
  });

  it('leaves out the status message that is the task’s answer', () => {
    const question = agent('q2', 'Which colour?');
    const said = taskProgress(
      run(),
      task(
        'TASK_STATE_INPUT_REQUIRED',
        [user('ours'), agent('s1', 'Looking.'), question],
        question,
      ),
      true,
    );
    expect(texts(said)).toEqual(['Looking.']);
  });

  it('shows the status message of a working task whose history lacks the run’s message', () => {
    const said = taskProgress(
      run(),
      task('TASK_STATE_WORKING', [], agent('s9', 'Checking the stock…')),
      false,
    );
    expect(texts(said)).toEqual(['Checking the stock…']);
    // Shown once: the same status again says nothing.
    expect(
      texts(
        taskProgress(
          said.run,
          task('TASK_STATE_WORKING', [], agent('s9', 'Checking the stock…')),
          false,
        ),
      ),
    ).toEqual([]);
  });

  it('shows a status message the history does not hold yet, after the history’s new messages', () => {
    const said = taskProgress(
      run(),
      task('TASK_STATE_WORKING', [user('ours'), agent('s1', 'One.')], agent('s2', 'Two.')),
      false,
    );
    expect(texts(said)).toEqual(['One.', 'Two.']);
    expect(said.run.shown).toEqual(['s1', 's2']);
  });

  it('shows the history’s new messages of a task that shows no status yet', () => {
    const bare = Task.fromJSON({
      id: 't-1',
      contextId: 'c-1',
      history: [user('ours'), agent('s1', 'One.')],
    });
    expect(bare.status).toBeUndefined();

    expect(texts(taskProgress(run(), bare, false))).toEqual(['One.']);
  });
});

describe('taskProgress, what it leaves out', () => {
  it('shows nothing said before the run’s message, even after a message already shown', () => {
    const said = taskProgress(
      run({ shown: ['q'] }),
      task('TASK_STATE_WORKING', [
        agent('q', 'Which trim?'),
        agent('x', 'Anything else?'),
        user('ours'),
        user('later'),
        agent('s1', 'One.'),
      ]),
      false,
    );
    expect(texts(said)).toEqual(['One.']);
    expect(said.run.shown).toEqual(['q', 's1']);
  });

  it('shows none of the history when it does not hold the run’s message', () => {
    const said = taskProgress(
      run(),
      task('TASK_STATE_WORKING', [user('first'), agent('old', 'An old answer.')]),
      false,
    );
    expect(said.messages).toEqual([]);
    expect(said.run.shown).toEqual([]);
  });

  it('takes the status message of a task that no longer works for no progress', () => {
    const said = taskProgress(
      run({ asked: 'q' }),
      task('TASK_STATE_INPUT_REQUIRED', [], agent('q', 'Which trim?')),
      false,
    );
    expect(said.messages).toEqual([]);
  });
});

describe('statusMessage', () => {
  it('shows a message with text once, keyed by its id, or by its text when it has none', () => {
    expect(statusMessage(run(), Message.fromJSON(agent('e', ''))).messages).toEqual([]);
    const said = statusMessage(run(), Message.fromJSON(agent('', 'Hi.')));
    expect(texts(said)).toEqual(['Hi.']);
    expect(texts(statusMessage(said.run, Message.fromJSON(agent('', 'Hi.'))))).toEqual([]);
    expect(texts(statusMessage(said.run, Message.fromJSON(agent('', 'Bye.'))))).toEqual(['Bye.']);
  });

  it('shows nothing without a message', () => {
    const data = run();
    expect(statusMessage(data, undefined)).toEqual({ run: data, messages: [] });
  });

  it('remembers the newest fifty messages shown', () => {
    const earlier = Array.from({ length: 50 }, (_, i) => `s-${i}`);
    const said = statusMessage(run({ shown: earlier }), Message.fromJSON(agent('s-50', 'More.')));
    expect(texts(said)).toEqual(['More.']);
    expect(said.run.shown).toEqual([...earlier.slice(1), 's-50']);
    // The oldest is forgotten: shown again if it came again.
    expect(texts(statusMessage(said.run, Message.fromJSON(agent('s-0', 'Zero.'))))).toEqual([
      'Zero.',
    ]);
  });
});

describe('verdictOf', () => {
  const question = agent('q', 'Which trim?');
  const asking = task('TASK_STATE_INPUT_REQUIRED', [user('ours')], question);

  it('takes no answer from a task that still shows the question the message answers', () => {
    const data = run({ asked: 'q' });
    expect(stillAsking(data, asking.status)).toBe(true);
    expect(verdictOf(data, asking, 'r')).toBeUndefined();
  });

  it('takes a new question as the answer, with its id for the next answer', () => {
    expect(verdictOf(run({ asked: 'earlier' }), asking, 'r')).toMatchObject({
      status: 'input_required',
      responseMessage: 'Which trim?',
      metadata: { task_id: 't-1', question_id: 'q' },
    });
  });

  it('takes only the end of a task from the first answer to a message that continues it', () => {
    expect(verdictOf(run(), asking, 'r', true)).toBeUndefined();
    const failed = task('TASK_STATE_FAILED', [], agent('f', 'No stock.'));
    expect(verdictOf(run(), failed, 'r', true)).toMatchObject({ status: 'fatal_error' });
  });
});

describe('sawState', () => {
  it('keeps each change of the task’s state with its time, the newest twenty', () => {
    let data = run();
    data = sawState(data, TaskState.TASK_STATE_SUBMITTED, 1);
    data = sawState(data, TaskState.TASK_STATE_WORKING, 2);
    data = sawState(data, TaskState.TASK_STATE_WORKING, 3);
    data = sawState(data, undefined, 4);
    data = sawState(data, TaskState.TASK_STATE_INPUT_REQUIRED, 5);
    expect(data.states).toEqual([
      { state: 'submitted', at: 1 },
      { state: 'working', at: 2 },
      { state: 'input-required', at: 5 },
    ]);
    for (let i = 0; i < 30; i++) {
      data = sawState(
        data,
        i % 2 ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_INPUT_REQUIRED,
        10 + i,
      );
    }
    expect(data.states).toHaveLength(20);
    expect(data.states?.at(-1)).toEqual({ state: 'working', at: 39 });
  });
});
