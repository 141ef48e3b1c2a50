/**
 * The inspector's account of agent steps, kept in the local stack's memory: each step the worker
 * committed, with when it began, how long it took, how it ended (a retry with its reason, the
 * last step with the run's output) and what it did, and each run's data after its latest step.
 * Nothing is stored for it: the last step of a run writes no record, so without this account the
 * inspector would not see it. Steps of runs that ran before the process started are not in it.
 */
import type { AgentOutput } from '../../assistant/index.js';
import type { StepReport } from '../../runtime/index.js';

/** One step as the inspector shows it. */
export interface StepEntry {
  readonly step: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly outcome: StepReport['outcome'];
  readonly reason?: string;
  readonly retryInMs?: number;
  readonly output?: AgentOutput;
  /** What the step did, in a few words each: model calls, tools run, task states seen. */
  readonly did: readonly string[];
  /** A ReAct step's iteration (from 1): the model call it made, or whose tools it ran. */
  readonly iteration?: number;
}

/** A run's steps, and its runner's data after the latest. */
export interface JournalRun {
  readonly runId: string;
  readonly agentId: string;
  readonly steps: readonly StepEntry[];
  readonly step: number;
  readonly runner: unknown;
}

/** How much the journal keeps: the newest conversations, and runs and steps of each. */
export interface JournalLimits {
  readonly conversations: number;
  readonly runsPerConversation: number;
  readonly stepsPerRun: number;
}

const LIMITS: JournalLimits = { conversations: 200, runsPerConversation: 50, stepsPerRun: 200 };

export class StepJournal {
  private readonly conversations = new Map<string, Map<string, JournalRun>>();

  constructor(private readonly limits: JournalLimits = LIMITS) {}

  /** Takes a committed step (`RuntimeDeps.journal`). A step told twice is kept once. */
  readonly record = (report: StepReport): void => {
    const runs = this.conversations.get(report.conversationId) ?? new Map<string, JournalRun>();
    // Map order is insertion order: the conversation and run told of last go to the end.
    this.conversations.delete(report.conversationId);
    this.conversations.set(report.conversationId, runs);
    const known = runs.get(report.runId);
    const steps = (known?.steps ?? []).filter((s) => s.step !== report.step);
    const entry: StepEntry = {
      step: report.step,
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      outcome: report.outcome,
      ...(report.reason !== undefined ? { reason: report.reason } : {}),
      ...(report.retryInMs !== undefined ? { retryInMs: report.retryInMs } : {}),
      ...(report.output !== undefined ? { output: report.output } : {}),
      did:
        report.outcome === 'continued' || report.outcome === 'done'
          ? stepActions(report.before, report.runner)
          : [],
      ...iterationOf(report.before),
    };
    const latest = known === undefined || report.step >= known.step;
    runs.delete(report.runId);
    runs.set(report.runId, {
      runId: report.runId,
      agentId: report.agentId,
      steps: [...steps, entry].sort((a, b) => a.step - b.step).slice(-this.limits.stepsPerRun),
      step: latest ? report.step : (known?.step ?? report.step),
      runner: latest ? report.runner : known?.runner,
    });
    trim(runs, this.limits.runsPerConversation);
    trim(this.conversations, this.limits.conversations);
  };

  /** The runs of a conversation the journal knows, by run id. */
  runs(conversationId: string): ReadonlyMap<string, JournalRun> {
    return this.conversations.get(conversationId) ?? new Map();
  }
}

/**
 * The iteration a ReAct step belongs to, from the data before it: tool calls left pending are
 * the current iteration's, run by this step; else the step calls the model for the next one.
 */
function iterationOf(before: unknown): { iteration?: number } {
  const data = asRecord(before);
  if (!Array.isArray(data.messages)) return {};
  const answers = (data.messages as Record<string, unknown>[]).filter(
    (m) => asRecord(m).role === 'assistant',
  ).length;
  const toolsPending = Array.isArray(data.pending) && data.pending.length > 0;
  return { iteration: toolsPending ? answers : answers + 1 };
}

function trim(map: Map<string, unknown>, size: number): void {
  for (const key of map.keys()) {
    if (map.size <= size) return;
    map.delete(key);
  }
}

/**
 * What a step did, read from the runner's data before and after it: a ReAct step's model call
 * (the tools it asked for) and the tools that ran; an A2A step's task states and polls.
 */
export function stepActions(before: unknown, after: unknown): string[] {
  const was = asRecord(before);
  const now = asRecord(after);
  if (Array.isArray(now.messages)) return reactActions(was, now);
  if (typeof now.messageId === 'string') return a2aActions(was, now);
  return [];
}

interface ToolCallLike {
  readonly name?: unknown;
}

function reactActions(was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const messages = now.messages as readonly Record<string, unknown>[];
  const previous = Array.isArray(was.messages) ? was.messages.length : 0;
  const did: string[] = [];
  const calls = Number(now.modelCalls ?? 0) - Number(was.modelCalls ?? 0);
  const added = messages.slice(previous);
  for (const message of added) {
    if (message.role === 'assistant') {
      const names = ((message.toolCalls ?? []) as ToolCallLike[]).map((c) => String(c.name));
      did.push(names.length > 0 ? `model asked for ${names.join(', ')}` : 'model answered');
    }
  }
  if (calls > 0 && !added.some((m) => m.role === 'assistant')) did.push('model answered');
  const results = Array.isArray(now.results) ? now.results : [];
  const ran = results.slice(Array.isArray(was.results) ? was.results.length : 0) as {
    toolName?: unknown;
    isError?: unknown;
  }[];
  if (ran.length > 0) {
    const names = ran.map((r) => `${String(r.toolName)}${r.isError === true ? ' (error)' : ''}`);
    did.push(`ran ${names.join(', ')}`);
  }
  return did;
}

function a2aActions(was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const did: string[] = [];
  if (was.taskId === undefined && typeof now.taskId === 'string') did.push('sent the message');
  const states = Array.isArray(now.states)
    ? (now.states as { state?: unknown; at?: unknown }[])
    : [];
  // By time, not by count: a run keeps only its newest states.
  const last = Array.isArray(was.states) ? asRecord(was.states.at(-1)).at : undefined;
  const since = typeof last === 'number' ? last : Number.NEGATIVE_INFINITY;
  const seen = states.filter((s) => typeof s.at === 'number' && s.at > since);
  if (seen.length > 0) did.push(`task ${seen.map((s) => String(s.state)).join(' → ')}`);
  const polls = Number(now.polls ?? 0) - Number(was.polls ?? 0);
  if (polls > 0) did.push(polls === 1 ? 'polled the task' : `polled the task ${polls} times`);
  return did;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
