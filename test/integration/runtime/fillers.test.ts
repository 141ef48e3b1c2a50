import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentRunner } from '../../../src/runtime/index.js';
import { internalErrorReasons, runtimeSuite, userMessage } from '../../helpers/runtime.js';

const suite = runtimeSuite({
  'endpoints.yml': 'mcp_servers:\n  - name: tools\n    url: http://127.0.0.1:9000/mcp\n',
  'domain.yml': 'slots: {}\nresponses:\n  utter_done:\n    - text: Done.\n',
  'data/flows.yml':
    'flows:\n  research:\n    description: Research.\n    steps:\n      - call: researcher\n      - action: utter_done\n',
  'sub_agents/researcher/config.yml':
    'agent:\n  name: researcher\n  description: Researches.\nconnections:\n  mcp_servers:\n    - name: tools\n',
});

/**
 * A runner that goes round its tools `rounds` times, saying a filler (as a ReAct agent does with
 * the text that comes with tool calls) and a progress line each time, then gives up.
 */
function loopingRunner(rounds: number): AgentRunner<{ round: number }> {
  return {
    dataSchema: z.object({ round: z.number() }),
    start: () => ({ round: 0 }),
    step: async ({ round }) => {
      if (round === rounds) {
        const errorMessage = `researcher made ${rounds} model calls without finishing`;
        return {
          data: { round },
          next: { type: 'done', output: { id: 'r', status: 'fatal_error', errorMessage } },
        };
      }
      return {
        data: { round: round + 1 },
        messages: [
          { text: `Let me check (${round + 1}).`, metadata: { filler: true, agent_id: 'x' } },
          { text: `progress ${round + 1}` },
        ],
        next: { type: 'continue' },
      };
    },
  };
}

describe('filler messages of an agent run', () => {
  it('reach the user once a run, not once per round of tools, before a tool loop fails', async () => {
    const rt = await suite.runtime({ runners: { runnerFor: () => loopingRunner(6) } });
    rt.llm.reply('start flow research');
    const job = userMessage('loop', 'research');
    await rt.queue.enqueue([job]);
    await rt.drain(async () => (await rt.replies.read('loop', job.turn_id)).settled);
    const texts = (await rt.replies.read('loop', job.turn_id)).messages.map((m) => m.message.text);

    expect(texts.filter((t) => t?.startsWith('Let me check'))).toEqual(['Let me check (1).']);
    // Messages that are not fillers still go out at every step.
    expect(texts.filter((t) => t?.startsWith('progress'))).toHaveLength(6);
    expect(await internalErrorReasons(rt, 'loop')).toEqual([
      'researcher made 6 model calls without finishing',
    ]);
  }, 30_000);
});
