import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSwitchboard, say, startDemoSwitchboard } from '../helpers/localProcess.js';

interface Step {
  step: number;
  startedAt: number;
  durationMs: number;
  outcome: string;
  did: string[];
  iteration?: number;
  output?: { status: string; responseMessage?: string };
}

interface Run {
  runId: string;
  agentId: string;
  active: boolean;
  steps: Step[];
  data: { steps: number; runner: Record<string, unknown> };
}

interface View {
  id: string;
  version: number;
  tracker: { events: unknown[] };
  runs: Run[];
}

/** The inspector's API over the demo, without a browser: what the page draws its timelines from. */
describe('the inspector API', () => {
  let running: RunningSwitchboard;
  const read = async (sender: string): Promise<View> => {
    const response = await fetch(`${running.url}/inspect/api/conversations/${sender}`);
    expect(response.status).toBe(200);
    return (await response.json()) as View;
  };

  beforeAll(async () => {
    running = await startDemoSwitchboard();
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
  });

  it('answers a conversation no message has reached as an empty one', async () => {
    const view = await read('nobody-yet');
    expect(view).toMatchObject({ id: 'nobody-yet', version: 0, runs: [] });
    expect(view.tracker.events).toEqual([]);
  });

  it("shows each run's steps with their times, iterations and last step, and an A2A task's states", async () => {
    const sender = 'api-timeline';
    await say(running.url, sender, 'Can you recommend an electric SUV under 50000?');
    await say(running.url, sender, 'Tell me about the Aurora EV');
    await say(running.url, sender, 'I would like to buy it');
    const ordered = await say(running.url, sender, 'Touring');
    expect(ordered.map((m) => m.text).join(' ')).toMatch(/is ordered/);

    const view = await read(sender);
    const research = view.runs.filter((r) => r.agentId === 'car_research_agent');
    expect(research.length).toBeGreaterThanOrEqual(2);
    const search = research.find((r) => r.steps.some((s) => s.did.join().includes('search_cars')));
    if (!search) throw new Error('no run searched the catalog');
    expect(search.active).toBe(false);
    expect(search.steps.map((s) => s.step)).toEqual(search.steps.map((_, i) => i));
    for (const step of search.steps) {
      expect(step.startedAt).toBeGreaterThan(0);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
      expect(step.iteration).toBeGreaterThanOrEqual(1);
    }
    const last = search.steps.at(-1);
    expect(last?.outcome).toBe('done');
    expect(last?.output?.responseMessage).toMatch(/^Here are some options/);
    // The record of the run is made newer by its last step, which wrote none.
    expect(search.data.steps).toBe(search.steps.length);
    expect(search.data.runner.modelCalls).toBe(last?.iteration);

    const shopping = view.runs.filter((r) => r.agentId === 'car_shopping_agent');
    const states = shopping.flatMap(
      (r) => (r.data.runner.states as { state: string }[] | undefined) ?? [],
    );
    expect(states.map((s) => s.state)).toContain('completed');
    const ended = shopping.flatMap((r) => r.steps).filter((s) => s.outcome === 'done');
    expect(ended.map((s) => s.output?.status)).toContain('completed');
    expect(
      shopping.flatMap((r) => r.steps).some((s) => /task .*completed/.test(s.did.join())),
    ).toBe(true);
  }, 60_000);
});
