import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployedSecretNames } from '../../../src/build/secretNames.js';
import type { LoadResult } from '../../../src/config/index.js';
import { BASE_PROJECT, errorLines, loadProject } from '../../helpers/project.js';

/** The base endpoints with an `nlg` block appended (it starts at line 10). */
const withNlg = (nlg: string) => `${BASE_PROJECT['endpoints.yml']}nlg:\n${nlg}`;

/** The base domain with a response whose variation carries `metadata` (from line 14). */
const domainWithMetadata = (metadata: string) =>
  `${BASE_PROJECT['domain.yml']}  utter_greet:\n    - text: Hello!\n      metadata:\n${metadata}`;

function notes(dir: string, result: LoadResult): string[] {
  return result.notes.map((n) => `${path.relative(dir, n.file)}:${n.line}:${n.col}: ${n.message}`);
}

function ignored(dir: string, result: LoadResult): string[] {
  return result.ignored.map((i) => `${path.relative(dir, i.file)}:${i.line}:${i.col}: ${i.key}`);
}

function loaded(result: LoadResult) {
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.assistant;
}

describe('nlg in endpoints.yml', () => {
  it("takes Rasa's defaults when only the type is given", async () => {
    const { result } = await loadProject({ 'endpoints.yml': withNlg('  type: rephrase\n') });
    expect(loaded(result).rephraser).toEqual({
      rephrase_all: false,
      summarize_history: true,
      max_historical_turns: 5,
      count_multiple_utterances_as_single_turn: true,
    });
    expect(result.ignored).toEqual([]);
  });

  it('reads every setting, the model group and the prompt file', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg(
        '  type: rephrase\n  rephrase_all: true\n  summarize_history: false\n  max_historical_turns: 3\n  prompt: prompts/rephrase.jinja2\n  llm:\n    model_group: main\n',
      ),
      'prompts/rephrase.jinja2': 'Say it better: {{ suggested_response }}\n',
    });
    expect(loaded(result).rephraser).toEqual({
      rephrase_all: true,
      summarize_history: false,
      max_historical_turns: 3,
      count_multiple_utterances_as_single_turn: true,
      llm: { model_group: 'main' },
      promptTemplate: {
        file: path.join(dir, 'prompts/rephrase.jinja2'),
        text: 'Say it better: {{ suggested_response }}\n',
      },
    });
  });

  it('accepts prompt_template, the newer name of prompt', async () => {
    const { result } = await loadProject({
      'endpoints.yml': withNlg('  type: rephrase\n  prompt_template: prompts/r.jinja2\n'),
      'prompts/r.jinja2': '{{ suggested_response }}',
    });
    expect(loaded(result).rephraser?.promptTemplate?.text).toBe('{{ suggested_response }}');
  });

  it('rephrases with its own rephraser for a Python class, and says so once', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg(
        '  type: rephraser.CustomContextualResponseRephraser\n  rephrase_all: true\n  prompt: prompts/r.jinja2\n  tone: cheerful\n',
      ),
      'prompts/r.jinja2': 'Cheerfully: {{ suggested_response }}',
    });
    expect(loaded(result).rephraser).toMatchObject({
      rephrase_all: true,
      promptTemplate: { text: 'Cheerfully: {{ suggested_response }}' },
    });
    expect(notes(dir, result)).toEqual([
      "endpoints.yml:11:9: nlg.type rephraser.CustomContextualResponseRephraser is a Python class, which does not run here: Switchboard's own rephraser runs with this block's prompt and settings; the class's own keys (tone) are not used",
    ]);
  });

  it("takes rasa_plus.ml.ContextualResponseRephraser, Rasa Pro 3.7's name of its rephraser, as rephrase", async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg(
        '  type: rasa_plus.ml.ContextualResponseRephraser\n  rephrase_all: true\n  llm:\n    model_group: main\n',
      ),
    });
    expect(loaded(result).rephraser).toMatchObject({
      rephrase_all: true,
      llm: { model_group: 'main' },
    });
    expect(notes(dir, result)).toEqual([
      'endpoints.yml:11:9: nlg.type rasa_plus.ml.ContextualResponseRephraser names Rasa\'s contextual response rephraser by its class: read as "rephrase", the type Rasa Pro reads since 3.8',
    ]);
  });

  it("uses the model group a Python class's block names beside its type, as lakera's does", async () => {
    const { result } = await loadProject({
      'endpoints.yml': withNlg(
        '  type: rephraser.CustomContextualResponseRephraser\n  rephrase_all: true\n  model_group: main\n',
      ),
    });
    expect(loaded(result).rephraser).toMatchObject({ llm: { model_group: 'main' } });
    expect(result.notes.map((n) => n.message).join('')).not.toContain('not used');
  });

  it('refuses a model group beside the type, which Rasa would not use, and says to write it under llm', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg('  type: rephrase\n  model_group: main\n'),
    });
    expect(errorLines(dir, result)).toEqual([
      'endpoints.yml:12:3: unknown key "model_group" in nlg: Rasa reads the rephraser\'s model only from llm, so it would not use this model group; write "llm: {model_group: main}" instead',
    ]);
  });

  it('notes an external NLG server and rephrases nothing', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg('  url: http://127.0.0.1:5056/nlg\n  token: abc\n'),
    });
    expect(loaded(result).rephraser).toBeUndefined();
    expect(notes(dir, result)).toEqual([
      'endpoints.yml:10:1: nlg: an external NLG server is not called here; responses come from the domain',
    ]);
  });

  it("lists Rasa's trace_prompt_tokens as ignored", async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg('  type: rephrase\n  trace_prompt_tokens: true\n'),
    });
    expect(loaded(result).rephraser).toBeDefined();
    expect(ignored(dir, result)).toEqual(['endpoints.yml:12:3: trace_prompt_tokens']);
  });

  it('counts an inline api_key among the secrets a deployment reads', async () => {
    const { result } = await loadProject(
      {
        'endpoints.yml': withNlg(
          '  type: rephrase\n  llm:\n    model: gpt-4.1-mini\n    api_key: ${REPHRASE_KEY}\n',
        ),
      },
      { REPHRASE_KEY: 'sk-rephrase' },
    );
    const assistant = loaded(result);
    expect(assistant.rephraser?.llm?.api_key).toEqual({ secret: 'REPHRASE_KEY' });
    expect(JSON.stringify(assistant)).not.toContain('sk-rephrase');
    expect(deployedSecretNames(assistant)).toContain('REPHRASE_KEY');
  });

  it.each([
    {
      rule: 'the type is rephrase or a Python class',
      nlg: '  type: rephraser\n',
      errors: [
        'endpoints.yml:11:9: nlg.type must be "rephrase" (the contextual response rephraser) or the dotted path of a Python rephraser class such as "custom.rephraser.MyRephraser"',
      ],
    },
    {
      rule: 'unknown keys are errors with a suggestion',
      nlg: '  type: rephrase\n  rephrase_al: true\n',
      errors: [
        'endpoints.yml:12:3: unknown key "rephrase_al" in nlg (did you mean "rephrase_all"?); allowed: type, rephrase_all, summarize_history, max_historical_turns, count_multiple_utterances_as_single_turn, prompt_template, prompt, llm',
      ],
    },
    {
      rule: 'settings have their types',
      nlg: '  type: rephrase\n  rephrase_all: "yes"\n  max_historical_turns: -1\n',
      errors: [
        'endpoints.yml:12:17: nlg.rephrase_all must be true or false (got string "yes")',
        'endpoints.yml:13:25: nlg.max_historical_turns must be 0 or more',
      ],
    },
    {
      rule: 'the model group exists',
      nlg: '  type: rephrase\n  llm:\n    model_group: mian\n',
      errors: [
        'endpoints.yml:13:18: nlg.llm.model_group "mian" is not a model group in endpoints.yml (did you mean "main"?)',
      ],
    },
    {
      rule: 'a model group and a model are exclusive',
      nlg: '  type: rephrase\n  llm:\n    model_group: main\n    model: gpt-4.1\n',
      errors: [
        'endpoints.yml:14:5: nlg.llm.model cannot be used together with "model_group": name a model group or a model, not both',
      ],
    },
    {
      rule: 'the prompt file is named once',
      nlg: '  type: rephrase\n  prompt_template: a.jinja2\n  prompt: b.jinja2\n',
      errors: [
        'endpoints.yml:13:3: nlg.prompt cannot be used together with "prompt_template": name the prompt file once (prompt is the older name of prompt_template)',
      ],
    },
    {
      rule: 'the prompt file exists',
      nlg: '  type: rephrase\n  prompt: prompts/missing.jinja2\n',
      errors: [
        'endpoints.yml:12:11: nlg.prompt: template file prompts/missing.jinja2 does not exist',
      ],
    },
    {
      rule: 'an inline api_key is a ${VAR} reference',
      nlg: '  type: rephrase\n  llm:\n    model: gpt-4.1\n    api_key: sk-123\n',
      errors: [
        'endpoints.yml:14:14: nlg.llm.api_key must be an environment variable reference such as "${MY_SECRET}", so the secret is never written in the file',
      ],
    },
  ])('$rule', async ({ nlg, errors }) => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg(nlg),
      'a.jinja2': '{{ suggested_response }}',
      'b.jinja2': '{{ suggested_response }}',
    });
    expect(result.ok).toBe(false);
    expect(errorLines(dir, result)).toEqual(errors);
  });

  it('points a syntax error of the prompt file into the file', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': withNlg('  type: rephrase\n  prompt: prompts/r.jinja2\n'),
      'prompts/r.jinja2': 'Rephrase:\n{{ suggested_response }\n',
    });
    expect(errorLines(dir, result)).toEqual([
      'prompts/r.jinja2:2:23: template syntax: expected variable end',
    ]);
  });
});

describe("responses' rephrasing metadata", () => {
  it('loads rephrase flags and a per-response prompt', async () => {
    const { result } = await loadProject({
      'domain.yml': domainWithMetadata(
        '        rephrase: true\n        rephrase_prompt: |\n          Greet warmly: {{ suggested_response }}\n',
      ),
    });
    expect(loaded(result).responses.utter_greet?.[0]?.metadata).toEqual({
      rephrase: true,
      rephrase_prompt: 'Greet warmly: {{ suggested_response }}\n',
    });
  });

  it.each([
    {
      rule: 'rephrase is true or false',
      metadata: '        rephrase: sometimes\n',
      errors: [
        'domain.yml:14:19: responses.utter_greet[0].metadata.rephrase must be true or false',
      ],
    },
    {
      rule: 'rephrase_prompt is a template',
      metadata: '        rephrase_prompt: 42\n',
      errors: [
        'domain.yml:14:26: responses.utter_greet[0].metadata.rephrase_prompt must be a non-empty template',
      ],
    },
    {
      rule: 'rephrase_prompt compiles',
      metadata: '        rephrase_prompt: "Say {{ suggested_response"\n',
      errors: [
        'domain.yml:14:26: responses.utter_greet[0].metadata.rephrase_prompt: template syntax: expected variable end (line 1 of the template)',
      ],
    },
  ])('$rule', async ({ metadata, errors }) => {
    const { dir, result } = await loadProject({ 'domain.yml': domainWithMetadata(metadata) });
    expect(errorLines(dir, result)).toEqual(errors);
  });
});
