import { describe, expect, it } from 'vitest';
import { botLines, printingReplies, terminalText, userLine } from '../../../src/local/turnLines.js';
import type { Job, ReplyBatch, ReplyStore } from '../../../src/runtime/index.js';

const batch = (messages: ReplyBatch['messages']): ReplyBatch => ({
  conversationId: 'ada',
  turnId: 't1',
  jobId: 'j1',
  version: 3,
  channel: 'rest',
  messages,
  settled: true,
});

describe('the turn lines of switchboard run', () => {
  it('shows a user message on one line, and nothing for other jobs', () => {
    const job = {
      type: 'user_message',
      id: 'j1',
      conversation_id: 'ada',
      turn_id: 't1',
      text: 'Hi,\n  can someone\tcall me back?',
      channel: 'rest',
    } as Job;

    expect(userLine(job)).toBe('ada < Hi, can someone call me back?');
    expect(userLine({ ...job, type: 'agent_step' } as unknown as Job)).toBeUndefined();
  });

  it('shows each bot message with its buttons, and cuts long texts', () => {
    const lines = botLines(
      batch([
        {
          recipient_id: 'ada',
          message: {
            text: 'When suits you best?',
            buttons: [
              { title: 'Morning', payload: '/SetSlots(t=morning)' },
              { title: 'Evening', payload: '/SetSlots(t=evening)' },
            ],
          },
        },
        { recipient_id: 'ada', message: { text: 'x'.repeat(250) } },
        { recipient_id: 'ada', message: { text: 'red\u001b[31m alert\u0007' } },
        { recipient_id: 'ada', message: { image: 'https://example.test/car.png' } },
      ] as unknown as ReplyBatch['messages']),
    );

    expect(lines).toEqual([
      'ada > When suits you best? [Morning | Evening]',
      `ada > ${'x'.repeat(200)}…`,
      'ada > red[31m alert',
      'ada > (a message without text)',
    ]);
  });

  it('prints a batch once the store has it, and reads through the store', async () => {
    const delivered: ReplyBatch[] = [];
    const store: ReplyStore = {
      deliver: async (b) => {
        delivered.push(b);
      },
      read: async () => ({ messages: [], settled: true }),
    };
    const printed: string[] = [];
    const replies = printingReplies(store, (line) => printed.push(line));

    await replies.deliver(batch([{ recipient_id: 'ada', message: { text: 'Hello.' } }] as never));

    expect(delivered).toHaveLength(1);
    expect(printed).toEqual(['ada > Hello.']);
    expect(await replies.read('ada', 't1')).toEqual({ messages: [], settled: true });
  });
});

describe('a text shown whole on a terminal', () => {
  it('keeps its line breaks and drops what a terminal would act on', () => {
    expect(terminalText('Line one\r\nline two\tend ')).toBe('Line one\nline two end');
    expect(terminalText('\u001b[2J\u001b]0;PWNED\u0007Hi \u202Egnp.exe')).toBe(
      '[2J]0;PWNEDHi gnp.exe',
    );
    expect(terminalText('x'.repeat(500))).toHaveLength(500);
  });
});
