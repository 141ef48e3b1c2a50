/**
 * `npm run bench a2a`: one A2A exchange (a user message, the agent's answer) against an agent
 * that answers at once from a child process, so every exchange pays the same loopback round trip
 * and only this process's CPU is counted. Compared: the SDK's client alone (`sendMessage`), and
 * Switchboard's A2A runner in process (the message built from the agent input, credentials and
 * retries on the request, the answer mapped to an agent output, the run's data serialized and
 * parsed back as a store round trip would). The two take turns, exchange by exchange. The server
 * half (`a2aServer.bench.ts`) measures an inbound exchange.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Message } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { A2ARunner } from '../src/a2a/index.js';
import type { A2ASubAgent, Assistant } from '../src/assistant/index.js';
import { a2aServerBenchmark } from './a2aServer.bench.js';
import { benchProject, mark, round, type Sample, since, spawnPeers, summary } from './harness.js';

const EXCHANGES = 500;
const WARMUP = 20;

/** The benchmark's assistant: one flow that calls the A2A agent by its card's URL. */
function benchAssistant(cardUrl: string): Promise<{ assistant: Assistant; dir: string }> {
  return benchProject('a2a', {
    'domain.yml': 'slots:\n  trim:\n    type: text\nresponses: {}\n',
    'data/flows.yml': 'flows:\n  bench:\n    description: Ask.\n    steps:\n      - call: remote\n',
    'sub_agents/remote/config.yml': `agent:\n  name: remote\n  protocol: A2A\n  description: Answers.\nconfiguration:\n  agent_card: ${cardUrl}\n`,
  });
}

type Exchange = (i: number) => Promise<Sample>;

async function sdkAlone(cardUrl: string): Promise<Exchange> {
  const client = await new ClientFactory().createFromUrl(cardUrl, '');
  return async () => {
    const start = mark();
    const answer = await client.sendMessage({
      tenant: '',
      message: Message.fromJSON({
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [
          { text: 'go' },
          { data: { slots: { trim: null }, conversation_history: 'USER: go' } },
        ],
      }),
      configuration: undefined,
      metadata: undefined,
    });
    if (!answer) throw new Error('no answer');
    return since(start);
  };
}

async function switchboardRunner(assistant: Assistant): Promise<Exchange> {
  const agent = assistant.agents.remote as A2ASubAgent;
  const runner = new A2ARunner({ assistant, secrets: { get: async () => '' } });
  return async (i) => {
    const start = mark();
    const data = runner.start({
      agent,
      frameId: 'f1',
      input: {
        id: `bench-${i}`,
        userMessage: 'go',
        slots: [{ name: 'trim', value: null, type: 'text' }],
        conversationHistory: 'USER: go',
        events: [{ event: 'user', text: 'go' }],
        metadata: { sender_id: `bench-${i}` },
        timestamp: new Date().toISOString(),
      },
      resumed: false,
      restarted: false,
    });
    const stored = runner.dataSchema.parse(JSON.parse(JSON.stringify(data)));
    const { signal } = new AbortController();
    const result = await runner.step(stored, {
      conversationId: `bench-${i}`,
      runId: `run-${i}`,
      signal,
    });
    runner.dataSchema.parse(JSON.parse(JSON.stringify(result.data)));
    if (result.next.type !== 'done' || result.next.output.status !== 'completed') {
      throw new Error(`the exchange did not complete: ${JSON.stringify(result.next)}`);
    }
    return since(start);
  };
}

export async function a2aBenchmark(): Promise<Record<string, unknown>> {
  const peer = await spawnPeers<{ cardUrl: string }>('./a2aPeer.ts');
  const { assistant, dir } = await benchAssistant(peer.ready.cardUrl);
  try {
    const exchanges = [await sdkAlone(peer.ready.cardUrl), await switchboardRunner(assistant)];
    const samples: Sample[][] = [[], []];
    for (let i = 0; i < WARMUP + EXCHANGES; i++) {
      // Taking turns, first one then the other, so that a busy machine weighs on both alike.
      for (let k = 0; k < exchanges.length; k++) {
        const index = (i + k) % exchanges.length;
        const sample = await (exchanges[index] as Exchange)(i);
        if (i >= WARMUP) samples[index]?.push(sample);
      }
    }
    const sdk = summary(samples[0] ?? []);
    const ours = summary(samples[1] ?? []);
    return {
      sdkSendMessage: sdk,
      switchboardRunnerStep: ours,
      medianOverSdkMs: round(ours.wallMedianMs - sdk.wallMedianMs),
      server: await a2aServerBenchmark(),
    };
  } finally {
    peer.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
