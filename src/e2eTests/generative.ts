import * as z from 'zod';
import type { LlmPort } from '../dialogue/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { type CheckResult, failed, passed } from './checkResult.js';
import type { Assertion } from './testCase.js';
import type { BotUtterance } from './turnEvents.js';

/** What an LLM judge is asked to score, from 0 (not at all) to 1 (fully). */
export type JudgeQuestion =
  | { readonly kind: 'relevance'; readonly question: string; readonly answer: string }
  | { readonly kind: 'groundedness'; readonly answer: string; readonly groundTruth: string };

/** Scores generated messages; a real model does it, never the scripted one. */
/** What judging a generated message needs of the test step. */
export interface GenerativeContext {
  /** The user message of the step. */
  readonly userText: string;
  /** The texts of a domain response's variations. */
  readonly responseTexts: (response: string) => readonly string[];
  /** Judges generated messages; without one, generative assertions are not checked. */
  readonly judge?: Judge;
}

export interface Judge {
  score(question: JudgeQuestion): Promise<{ score: number; reason: string }>;
}

type GenerativeAssertion = Extract<
  Assertion,
  { type: 'generative_response_is_relevant' | 'generative_response_is_grounded' }
>;

/**
 * Checks a generative assertion: the turn's generated message (the one rendering `utter_name`,
 * or else the messages no domain response rendered) is scored by the judge against the threshold.
 * Without a judge nothing is scored, and the assertion is reported as not checked.
 */
export async function judgeGenerative(
  assertion: GenerativeAssertion,
  utterances: readonly BotUtterance[],
  context: GenerativeContext,
): Promise<CheckResult> {
  const { spec } = assertion;
  const candidates = utterances.filter(
    (u) =>
      u.text !== undefined &&
      (spec.utter_name !== undefined ? u.response === spec.utter_name : u.response === undefined) &&
      (spec.utter_source === undefined || u.metadata.utter_source === spec.utter_source),
  );
  const what =
    spec.utter_name !== undefined
      ? `message of ${spec.utter_name}`
      : spec.utter_source !== undefined
        ? `message from ${spec.utter_source}`
        : 'generated message (one no domain response rendered)';
  const quality = assertion.type === 'generative_response_is_relevant' ? 'relevant' : 'grounded';
  const expected = `a ${what} ${quality} at ${spec.threshold} or more`;
  if (candidates.length === 0) return failed(expected, `the turn has no ${what}`);
  if (!context.judge) {
    return { status: 'not_checked', reason: `${assertion.type} needs a real model to judge it` };
  }
  let best: { score: number; reason: string; index: number } | undefined;
  for (const u of candidates) {
    const question = questionFor(assertion, u, context);
    if (!question) {
      return {
        status: 'not_checked',
        reason: `${assertion.type} has no ground truth: give ground_truth, or name a domain response with utter_name`,
      };
    }
    let verdict: { score: number; reason: string };
    try {
      verdict = await context.judge.score(question);
    } catch (error) {
      // The judge's failure is this assertion's: the test case reports it and stops.
      return failed(
        expected,
        `the judge failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!best || verdict.score > best.score) best = { ...verdict, index: u.index };
    if (verdict.score >= spec.threshold) return passed(u.index);
  }
  return failed(expected, `the judge scored it ${best?.score ?? 0}: ${best?.reason ?? ''}`);
}

function questionFor(
  assertion: GenerativeAssertion,
  u: BotUtterance,
  context: GenerativeContext,
): JudgeQuestion | undefined {
  const answer = u.text ?? '';
  if (assertion.type === 'generative_response_is_relevant') {
    return { kind: 'relevance', question: context.userText, answer };
  }
  const groundTruth =
    assertion.spec.ground_truth ??
    (u.response !== undefined ? context.responseTexts(u.response).join('\n') : undefined);
  return groundTruth ? { kind: 'groundedness', answer, groundTruth } : undefined;
}

const Verdict = z.object({ score: z.number().min(0).max(1), reason: z.string().optional() });

/** The judge's instructions; its answer is one line of JSON. */
const INSTRUCTIONS = {
  relevance:
    'You grade an assistant. Given the user message and the assistant answer, rate how well the answer addresses what the user asked, from 0 (unrelated) to 1 (fully addresses it).',
  groundedness:
    'You grade an assistant. Given the facts and the assistant answer, rate how well every claim of the answer is supported by the facts, from 0 (contradicted or made up) to 1 (fully supported).',
} as const;

/** A judge on a chat model: it asks for a score and a reason as JSON. */
export class LlmJudge implements Judge {
  constructor(private readonly model: LlmPort) {}

  async score(question: JudgeQuestion): Promise<{ score: number; reason: string }> {
    const material =
      question.kind === 'relevance'
        ? `User message:\n${question.question}\n\nAssistant answer:\n${question.answer}`
        : `Facts:\n${question.groundTruth}\n\nAssistant answer:\n${question.answer}`;
    const { content } = await this.model.complete({
      messages: [
        {
          role: 'system',
          content: `${INSTRUCTIONS[question.kind]} Answer with JSON only: {"score": <number from 0 to 1>, "reason": "<one sentence>"}.`,
        },
        { role: 'user', content: material },
      ],
    });
    const verdict = Verdict.safeParse(jsonIn(content));
    if (!verdict.success) {
      throw new JudgeAnswerError(`the judge's answer is not a score: ${content.slice(0, 200)}`);
    }
    return { score: verdict.data.score, reason: verdict.data.reason ?? '' };
  }
}

/** The judge model answered something that is not a score. Code `JUDGE_ANSWER_INVALID`. */
export class JudgeAnswerError extends SwitchboardError {
  override readonly name = 'JudgeAnswerError';
  override readonly code = 'JUDGE_ANSWER_INVALID';
}

function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
