export type { AssertionContext } from './assertions.js';
export { checkAssertion } from './assertions.js';
export type { CheckResult } from './checkResult.js';
export {
  COMMANDS_FILE_NAME,
  loadCommandsFile,
  ScriptedCommandModel,
  ScriptedCommands,
  type ScriptedMove,
  UnscriptedMessageError,
} from './commandsFile.js';
export type { Judge, JudgeQuestion } from './generative.js';
export { JudgeAnswerError, LlmJudge } from './generative.js';
export { junitXml } from './junit.js';
export type { SuiteLoad } from './loadSuite.js';
export { loadSuite, TestPathError } from './loadSuite.js';
export { LocalStackTarget, TargetRequestError } from './localTarget.js';
export { isShortcut, modelMessages, unknownFixtureSlots, unscriptedMessages } from './preflight.js';
export { resultLines, summaryLines } from './report.js';
export type { CaseFailure, CaseResult, ConversationTarget, RunOptions } from './runner.js';
export { runSuite } from './runner.js';
export type { RunningCase } from './runningCase.js';
export { ScriptedAgentModel, scriptedModel } from './scriptedAgents.js';
export { checkStep } from './stepChecks.js';
export { stubbedActions } from './stubs.js';
export type {
  Assertion,
  Definition,
  Definitions,
  SlotExpectation,
  Step,
  TestCase,
  TestSuite,
  Where,
} from './testCase.js';
export { definitionFor } from './testCase.js';
export type { TurnEvent } from './turnEvents.js';
