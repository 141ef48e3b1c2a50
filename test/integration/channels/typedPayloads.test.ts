import { describe, expect, it } from 'vitest';
import { readTracker, standardChannels } from '../../../src/channels/index.js';
import { inboundJob } from '../../../src/channels/messaging/index.js';
import { processJob } from '../../../src/runtime/index.js';
import { GREETING_PROJECT } from '../../helpers/project.js';
import { NEVER, runtimeSuite } from '../../helpers/runtime.js';

const suite = runtimeSuite(GREETING_PROJECT);

describe('a payload typed on a public platform', () => {
  it('goes to the command generator as text: only a button may set slots directly', async () => {
    // The conversation's replies stay in the reply store: this test reads the slots alone.
    const rt = await suite.runtime({
      channels: (context) => [
        ...standardChannels(context),
        { name: 'telegram', routes: [], streams: false, output: context.replies },
      ],
    });
    const message = (text: string, typed: boolean, eventId: string) =>
      inboundJob('telegram', { eventId, conversationId: 'telegram:42', text, typed });
    rt.llm.reply('start flow greet');
    await processJob(message('/SetSlots(name=Mallory)', true, 'u1'), rt.deps, NEVER);
    expect(rt.llm.prompts).toHaveLength(1);
    expect((await readTracker(rt.store, 'telegram:42')).slots.name).toBeNull();
    // The same text from a pressed button is a payload: no model is asked.
    await processJob(message('/SetSlots(name=Ada)', false, 'u2'), rt.deps, NEVER);
    expect(rt.llm.prompts).toHaveLength(1);
    const said = (await readTracker(rt.store, 'telegram:42')).events.flatMap((e) =>
      (e as { event: string }).event === 'bot' ? [(e as { text?: string }).text] : [],
    );
    expect(said).toContain('Hello Ada!');
    expect(said.join(' ')).not.toContain('Mallory');
  });
});
