import type { Assistant } from '../assistant/index.js';
import { BUILTIN_SLOTS } from '../assistant/index.js';
import { type Diagnostic, didYouMean, relativeFile } from '../config/index.js';
import type { ScriptedCommands } from './commandsFile.js';
import type { TestSuite, Where } from './testCase.js';

/** `/SetSlots(...)`, `/StartFlow(...)` and `/intent` messages: the engine needs no model for them. */
export function isShortcut(text: string): boolean {
  return /^\/[A-Za-z_]/.test(text.trim());
}

/** The user messages that need the command generator's model, with where they are written. */
export function modelMessages(
  suite: TestSuite,
): { testCase: string; text: string; where: Where }[] {
  return suite.cases.flatMap((testCase) =>
    testCase.steps.flatMap((step) =>
      step.kind === 'user' && !isShortcut(step.text)
        ? [{ testCase: testCase.name, text: step.text, where: step.where }]
        : [],
    ),
  );
}

/** A diagnostic for each user message the commands file does not script. */
export function unscriptedMessages(
  suite: TestSuite,
  commands: ScriptedCommands,
  base: string,
): Diagnostic[] {
  return modelMessages(suite)
    .filter((m) => commands.lookup({ name: m.testCase, message: m.text }, m.text) === undefined)
    .map((m) => ({
      ...m.where,
      message: `user message ${JSON.stringify(m.text)} has no commands in ${relativeFile(commands.file, base)}${commands.suggestion(m.text)}; add it under "commands:" (or "${m.testCase}::${m.text}" for this test case only)`,
    }));
}

/** A diagnostic for each fixture slot the domain does not define. */
export function unknownFixtureSlots(suite: TestSuite, assistant: Assistant): Diagnostic[] {
  const known = [...Object.keys(assistant.slots), ...Object.keys(BUILTIN_SLOTS)];
  return [...suite.fixtures.values()].flatMap((byName) =>
    [...byName].flatMap(([name, fixture]) =>
      Object.keys(fixture.value)
        .filter((slot) => !known.includes(slot))
        .map((slot) => ({
          ...fixture.where,
          message: `fixture "${name}" sets slot "${slot}", which the domain does not define${didYouMean(slot, known)}`,
        })),
    ),
  );
}
