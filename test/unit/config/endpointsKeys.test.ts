import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { BASE_PROJECT, errorLines, loadProject, writeProject } from '../../helpers/project.js';

const MODELS = BASE_PROJECT['endpoints.yml'] ?? '';

/** Every top-level key Rasa 3.14 reads from endpoints.yml that Switchboard does not use. */
const RASA_ONLY_KEYS = `tracker_store:
  type: sql
  dialect: postgresql
lock_store:
  type: redis
event_broker:
  type: kafka
timer_store:
  type: redis
models:
  url: http://models.example/tags/production
model:
  url: http://models.example/tags/production
nlu:
  url: http://nlu.example/parse
tracing:
  type: jaeger
  host: localhost
metrics:
  type: otlp
  endpoint: collector:4317
secrets_manager:
  type: vault
  url: http://vault.example:8200
interaction_handling:
  global_silence_timeout: 7
`;

function captureIo(cwd: string): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env: {}, stdout, stderr };
}

describe('endpoints.yml keys Rasa reads and Switchboard does not use', () => {
  it('loads every one of them, each with a note saying why it does not apply', async () => {
    const { dir, result } = await loadProject({ 'endpoints.yml': MODELS + RASA_ONLY_KEYS });
    expect(errorLines(dir, result)).toEqual([]);
    const noted = result.notes.map((n) => n.message.split(':')[0]);
    expect(noted).toEqual([
      'tracker_store',
      'lock_store',
      'event_broker',
      'timer_store',
      'models',
      'model',
      'nlu',
      'tracing',
      'metrics',
      'secrets_manager',
      'interaction_handling',
    ]);
    expect(result.notes.at(-1)?.message).toContain('pattern_user_silence');
  });

  it('warns, not notes, that privacy rules mask nothing', async () => {
    const privacy = `privacy:
  rules:
    - slot: card_number
      anonymization:
        type: redact
`;
    const { dir, result } = await loadProject({ 'endpoints.yml': MODELS + privacy });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.warnings.map((w) => `${w.line}:${w.col}: ${w.message}`)).toEqual([
      expect.stringMatching(/^10:1: privacy: Switchboard does not mask or delete PII/),
    ]);
    expect(result.ok && result.assistant.warnings).toEqual([
      expect.stringMatching(/^endpoints\.yml:10:1: privacy: Switchboard does not mask/),
    ]);
  });

  it('prints the privacy warning on validate', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': `${MODELS}privacy:\n  rules: []\n`,
    });
    const io = captureIo(dir);
    expect(await main(['validate'], io)).toBe(0);
    expect(io.stderr).toEqual([
      expect.stringMatching(/^warning: endpoints\.yml:10:1: privacy: Switchboard does not mask/),
    ]);
  });
});

describe('an endpoints.yml with an error', () => {
  it('reports the error once, without claiming that action_endpoint.url is missing', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `${MODELS}action_endpoint:
  url: http://localhost:5055/webhook
tracker_stor:
  type: sql
`,
      'domain.yml': `${BASE_PROJECT['domain.yml']}actions:
  - action_check_balance
`,
      'data/flows.yml': `flows:
  balance:
    description: Check the balance.
    steps:
      - action: action_check_balance
`,
    });
    expect(errorLines(dir, result)).toEqual([
      expect.stringMatching(/^endpoints\.yml:12:1: unknown key "tracker_stor" at the top level/),
    ]);
  });

  it('still names the action server when an unknown action is used', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': `${MODELS}action_endpoint:
  url: http://localhost:5055/webhook
  timeout: -1
`,
      'data/flows.yml': `flows:
  balance:
    description: Check the balance.
    steps:
      - action: action_check_balanse
`,
    });
    expect(errorLines(dir, result)).toEqual([
      expect.stringMatching(
        /^data\/flows\.yml:5:17: .* "action_check_balanse" is neither .* add it to the domain's actions$/,
      ),
      'endpoints.yml:12:12: action_endpoint.timeout must be greater than 0',
    ]);
  });
});
