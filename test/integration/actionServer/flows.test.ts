import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectActions } from '../../../src/actionServer/index.js';
import { DialogueEngine, NO_ACTIONS } from '../../../src/dialogue/index.js';
import { assistantFrom, Conversation, testPorts } from '../../helpers/dialogue.js';
import { answer, FakeActionServer, utterMessage } from '../../helpers/fakeActionServer.js';
import type { ProjectFilesSpec } from '../../helpers/project.js';
import { secretsOf } from '../mcp/fixtures.js';
import { ACTION_TOKEN, bankProject } from './fixtures.js';

const ERROR_TEXT = 'Sorry, something went wrong on my side. Please try again in a moment.';

async function conversationOn(files: ProjectFilesSpec): Promise<Conversation> {
  const assistant = await assistantFrom(files);
  const actions = projectActions(NO_ACTIONS, {
    assistant,
    secrets: secretsOf({ ACTION_TOKEN }),
  });
  return new Conversation(new DialogueEngine(assistant), testPorts(actions), 'ada');
}

/** The reason of the internal-error pattern the conversation started, if it started one. */
function errorReason(c: Conversation): unknown {
  for (const event of c.events) {
    if (event.event !== 'stack') continue;
    const frame = event.stack.find((f) => f.flow_id === 'pattern_internal_error');
    if (frame && 'data' in frame) return frame.data.reason;
  }
  return undefined;
}

describe('flows with actions on a Rasa action server', () => {
  let server: FakeActionServer;

  beforeAll(async () => {
    // Rasa validates a collected slot with the domain's validate_<slot> action.
    server = await FakeActionServer.start({ validate_amount: () => answer() });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('set the slots the action returns and say its messages before the flow goes on', async () => {
    server.action('action_check_balance', (call) =>
      answer(
        [{ event: 'slot', timestamp: null, name: 'balance', value: 1250.75 }],
        [
          utterMessage({ response: 'utter_greet_user', name: call.body.sender_id }),
          utterMessage({ text: 'One moment…' }),
        ],
      ),
    );
    const c = await conversationOn(bankProject(server.url));
    expect(await c.say('/check_balance')).toEqual([
      'Hello ada, welcome back.',
      'One moment…',
      'Your checking balance is 1250.75.',
      'Can I help you with anything else?',
    ]);
    expect(c.last?.messages[0]?.buttons).toEqual([{ title: 'Balance', payload: '/check_balance' }]);
    expect(c.state.slots.balance).toBe(1250.75);
    const call = server.callsOf('action_check_balance').at(-1);
    expect(call?.body.tracker.latest_message.intent.name).toBe('check_balance');
    expect(call?.body.tracker.stack.map((f: { flow_id: string }) => f.flow_id)).toEqual([
      'check_balance',
    ]);
  });

  it('answer with the internal-error pattern when the server has no such action', async () => {
    const c = await conversationOn(bankProject(server.url));
    c.ports.llm.reply('start flow profile');
    expect(await c.say('show my profile')).toEqual([ERROR_TEXT]);
    expect(errorReason(c)).toBe(
      `action action_fetch_profile failed: the action server at ${server.url} has no action action_fetch_profile (HTTP 404)`,
    );
    expect(c.state.stack).toEqual([]);
  });

  it('answer with the internal-error pattern when the action declines to run', async () => {
    server.action('action_transfer', () => ({
      status: 400,
      body: { error: 'Transfers are paused', action_name: 'action_transfer' },
    }));
    const c = await conversationOn(bankProject(server.url));
    c.ports.llm.reply('start flow transfer', 'set slot amount 20');
    expect(await c.say('send money')).toEqual(['How much?']);
    expect(await c.say('20')).toEqual([ERROR_TEXT]);
    expect(errorReason(c)).toBe('action action_transfer was rejected: Transfers are paused');
  });

  it("answer with the internal-error pattern, saying why, for an action of Rasa's Python module", async () => {
    const c = await conversationOn({
      ...bankProject(server.url),
      'endpoints.yml': 'action_endpoint:\n  actions_module: actions\n',
    });
    expect(await c.say('/check_balance')).toEqual([ERROR_TEXT]);
    expect(errorReason(c)).toMatch(
      /^action action_check_balance failed: action_check_balance is Python code of Rasa's in-process action module "actions".*set action_endpoint\.url/,
    );
  });

  it("run the project's action_session_start on the server instead of the built-in one", async () => {
    server.action('action_session_start', (call) =>
      answer(
        [
          { event: 'session_started' },
          { event: 'slot', name: 'account', value: String(call.body.tracker.sender_id) },
        ],
        [utterMessage({ text: 'Welcome back!' })],
      ),
    );
    const files = bankProject(server.url);
    const c = await conversationOn({
      ...files,
      'domain.yml': (files['domain.yml'] ?? '').replace(
        'actions:\n',
        'actions:\n  - action_session_start\n',
      ),
    });
    c.ports.llm.reply('start flow transfer');
    expect(await c.say('send money')).toEqual(['Welcome back!', 'How much?']);
    expect(c.state.slots.account).toBe('ada');
    expect(server.callsOf('action_session_start')).toHaveLength(1);
  });
});
