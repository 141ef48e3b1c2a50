/**
 * A ReAct run survives its worker dying at any point of any of its jobs: the user gets each
 * message once, and a tool that may change something is not run for a second model answer.
 * Tools the project declares read-only run in the same job as the model call (one job per
 * iteration); other tools in a job of their own after the model's answer is committed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectAgents } from '../../../src/assembly/index.js';
import type { ToolChatPort, ToolChatRequest, ToolChatResponse } from '../../../src/llm/index.js';
import {
  type GatewayCall,
  IDEMPOTENCY_KEY_META,
  type McpCallOptions,
  type McpCallResult,
  McpGateway,
} from '../../../src/mcp/index.js';
import {
  type Job,
  type JobQueue,
  processJob,
  type RuntimeDeps,
} from '../../../src/runtime/index.js';
import { startTestMcpServer, type TestMcpServer } from '../../helpers/mcpTestServer.js';
import {
  NEVER,
  runtimeSuite,
  storeWith,
  type TestRuntime,
  userMessage,
} from '../../helpers/runtime.js';

let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startTestMcpServer();
});
afterAll(async () => {
  await mcp.close();
});

const agent = (name: string, server: string) => `agent:
  name: ${name}
  description: Uses the echo tool once.
configuration:
  include_date_time: false
connections:
  mcp_servers:
    - name: ${server}
      include_tools: [echo]
`;

const suite = runtimeSuite(() => ({
  'endpoints.yml': `mcp_servers:
  - name: readers
    url: ${mcp.url}
    read_only: true
  - name: writers
    url: ${mcp.url}
`,
  'domain.yml': `responses:
  utter_looked:
    - text: Looked it up.
  utter_changed:
    - text: Changed it.
`,
  'data/flows.yml': `flows:
  look:
    description: Look something up.
    steps:
      - call: reader
      - action: utter_looked
  change:
    description: Change something.
    steps:
      - call: writer
      - action: utter_changed
`,
  'sub_agents/reader/config.yml': agent('reader', 'readers'),
  'sub_agents/writer/config.yml': agent('writer', 'writers'),
}));

/** Where a job's worker dies. */
const POINTS = [
  'after the model answered',
  'after the tools ran',
  'at the commit',
  'after the commit',
  'before the next job is queued',
] as const;
type Point = (typeof POINTS)[number];

/** The worker of one attempt, which dies at `point` when it gets there. */
interface Fault {
  point: Point;
  readonly controller: AbortController;
  fired: boolean;
}

let fault: Fault | undefined;

/** Kills the attempt if it has reached the point where it is to die. */
function reach(point: Point): void {
  if (!fault || fault.point !== point || fault.fired) return;
  fault.fired = true;
  const death = new Error(`the worker died ${point}`);
  fault.controller.abort(death);
  throw death;
}

/**
 * A model whose answer follows from the conversation alone, as a retried call needs: it calls
 * echo until a tool result is in, then finishes. Its filler names the call, so that a filler of
 * a lost answer shows.
 */
class Model implements ToolChatPort {
  calls = 0;
  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    this.calls += 1;
    const answered = request.messages.some((m) => m.role === 'tool');
    reach('after the model answered');
    if (answered) {
      return {
        content: 'All done.',
        toolCalls: [{ id: `done_${this.calls}`, name: 'task_completed', arguments: '{}' }],
      };
    }
    return {
      content: `Working (answer ${this.calls}).`,
      toolCalls: [{ id: `echo_${this.calls}`, name: 'echo', arguments: '{"text":"x"}' }],
    };
  }
}

class Gateway extends McpGateway {
  override async call(call: GatewayCall, options?: McpCallOptions): Promise<McpCallResult> {
    const result = await super.call(call, options);
    reach('after the tools ran');
    return result;
  }
}

/** The deps of an attempt that dies at the store or queue points. */
function dying(deps: RuntimeDeps): RuntimeDeps {
  const queue: JobQueue = {
    enqueue: async (jobs) => {
      reach('before the next job is queued');
      return deps.queue.enqueue(jobs);
    },
  };
  return {
    ...deps,
    queue,
    store: storeWith(deps.store, {
      commit: async (commit) => {
        reach('at the commit');
        return deps.store.commit(commit);
      },
      appendEvents: async (...args) => {
        reach('after the commit');
        return deps.store.appendEvents(...args);
      },
    }),
  };
}

/** What one turn left behind. */
interface Played {
  readonly texts: string[];
  /** Whether the worker died where it was to. */
  readonly died: boolean;
  /** Jobs the turn took (attempts that died not counted). */
  readonly jobs: number;
}

/**
 * Plays one turn job by job; the `crash.job`th job (0: the user's message) dies at `crash.point`
 * on its first attempt and is then delivered again, as the queue would.
 */
async function play(
  rt: TestRuntime,
  conversation: string,
  text: string,
  crash?: { job: number; point: Point },
): Promise<Played> {
  const first = userMessage(conversation, text);
  const deps = dying(rt.deps);
  let job: Job | undefined = first;
  let died = false;
  let jobs = 0;
  while (job) {
    if (crash?.job === jobs) {
      fault = { point: crash.point, controller: new AbortController(), fired: false };
      try {
        await processJob(job, deps, fault.controller.signal);
      } catch (error) {
        if (!fault.fired) throw error;
      }
      died = fault.fired;
      fault = undefined;
    }
    await processJob(job, rt.deps, NEVER);
    jobs += 1;
    job = (await rt.replies.read(conversation, first.turn_id)).settled
      ? undefined
      : await rt.takeStep(conversation);
  }
  const replies = await rt.replies.read(conversation, first.turn_id);
  return { texts: replies.messages.map((m) => m.message.text ?? ''), died, jobs };
}

describe('a ReAct run whose worker dies', () => {
  let model: Model;
  let gateway: McpGateway;
  let rt: TestRuntime;
  beforeAll(async () => {
    model = new Model();
    gateway = new Gateway({ assistant: suite.assistant, secrets: { get: async () => '' } });
    rt = await suite.runtime({
      model: {
        complete: async (request) => ({
          content: request.messages.some((m) => m.content.includes('please change'))
            ? 'start flow change'
            : 'start flow look',
        }),
      },
      runners: await projectAgents({
        assistant: suite.assistant,
        models: () => model,
        gateway,
        secrets: { get: async () => '' },
      }),
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  const closing = ['All done.', 'Can I help you with anything else?'];
  /** A filler of the model's first answer, whichever call it came from. */
  const FILLER = expect.stringMatching(/^Working \(answer \d+\)\.$/) as unknown as string;

  it('runs a read-only iteration in one job, and a side-effecting one in two', async () => {
    const reads = await play(rt, 'reads', 'please look');
    const changes = await play(rt, 'changes', 'please change');

    // The user's message, then the model's call with its echo, then the one with task_completed.
    expect(reads).toEqual({
      texts: [FILLER, 'All done.', 'Looked it up.', closing[1]],
      died: false,
      jobs: 3,
    });
    // The model's call, its echo in a job of its own, then the model's call with task_completed.
    expect(changes).toEqual({
      texts: [FILLER, 'All done.', 'Changed it.', closing[1]],
      died: false,
      jobs: 4,
    });
  });

  /**
   * The points each job of a run gets to, in order: the user's message, then the agent's steps.
   * The last step ends the run and queues nothing.
   */
  const READ_ONLY_RUN: readonly (readonly Point[])[] = [
    ['at the commit', 'after the commit', 'before the next job is queued'],
    [...POINTS],
    ['after the model answered', 'at the commit', 'after the commit'],
  ];
  const SIDE_EFFECTING_RUN: readonly (readonly Point[])[] = [
    ['at the commit', 'after the commit', 'before the next job is queued'],
    [
      'after the model answered',
      'at the commit',
      'after the commit',
      'before the next job is queued',
    ],
    ['after the tools ran', 'at the commit', 'after the commit', 'before the next job is queued'],
    ['after the model answered', 'at the commit', 'after the commit'],
  ];
  const cases = (run: readonly (readonly Point[])[]) =>
    run.flatMap((points, job) => points.map((point) => ({ job, point })));
  /** Whether the tool ran before the job died and the job's outcome was lost with it. */
  const lostAfterTool = (point: Point) =>
    point === 'after the tools ran' || point === 'at the commit';

  it.each(cases(READ_ONLY_RUN))(
    'read-only run, job $job dies $point: each message once, and the tool runs again only when its result was lost',
    async ({ job, point }) => {
      const conversation = `reads-${job}-${point}`.replaceAll(' ', '-');
      const before = mcp.calls.length;

      const played = await play(rt, conversation, 'please look', { job, point });

      expect(played).toEqual({
        texts: [FILLER, ...closing.slice(0, 1), 'Looked it up.', closing[1]],
        died: true,
        jobs: 3,
      });
      expect(mcp.calls.length - before).toBe(job === 1 && lostAfterTool(point) ? 2 : 1);
      const bots = (await rt.store.readEvents(conversation)).filter((e) => e.event.event === 'bot');
      expect(bots.map((e) => (e.event as { text?: string }).text)).toEqual(played.texts);
    },
  );

  it.each(cases(SIDE_EFFECTING_RUN))(
    'side-effecting run, job $job dies $point: each message once, and the tool runs for one answer with one key',
    async ({ job, point }) => {
      const conversation = `changes-${job}-${point}`.replaceAll(' ', '-');
      const before = mcp.calls.length;
      const modelCalls = model.calls;

      const played = await play(rt, conversation, 'please change', { job, point });

      expect(played).toEqual({
        texts: [FILLER, ...closing.slice(0, 1), 'Changed it.', closing[1]],
        died: true,
        jobs: 4,
      });
      const keys = mcp.calls.slice(before).map((c) => c.meta[IDEMPOTENCY_KEY_META]);
      expect(keys).toHaveLength(job === 2 && lostAfterTool(point) ? 2 : 1);
      expect(new Set(keys).size).toBe(1);
      // The model is asked again only when the job that asked it died before its commit.
      const lostAnswer =
        point === 'after the model answered' ||
        (point === 'at the commit' && job !== 2 && job !== 0);
      expect(model.calls - modelCalls).toBe(lostAnswer ? 3 : 2);
      const bots = (await rt.store.readEvents(conversation)).filter((e) => e.event.event === 'bot');
      expect(bots.map((e) => (e.event as { text?: string }).text)).toEqual(played.texts);
    },
  );
});
