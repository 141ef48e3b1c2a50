import { describe, expect, it } from 'vitest';
import { errorLines, loadProject } from '../../helpers/project.js';

const SLOTS = 'slots:\n  name:\n    type: text\n  confirmed:\n    type: bool\n';
const RESPONSES =
  'responses:\n  utter_ask_name:\n    - text: What is your name?\n  utter_done:\n    - text: Done, {name}.\n';

describe("the domain's session_config", () => {
  it("gives the conversation's session settings, Rasa's defaults for what it leaves out", async () => {
    const session = async (config: string) => {
      const { result } = await loadProject({ 'domain.yml': `${config}${SLOTS}${RESPONSES}` });
      if (!result.ok) throw new Error('the project should load');
      expect(result.notes).toEqual([]);
      return result.assistant.session;
    };

    expect(await session('')).toEqual({ expirationMinutes: 60, carryOverSlots: true });
    expect(
      await session(
        'session_config:\n  session_expiration_time: 0.5\n  carry_over_slots_to_new_session: false\n',
      ),
    ).toEqual({ expirationMinutes: 0.5, carryOverSlots: false });
    expect(await session('session_config:\n  start_session_after_expiry: false\n')).toEqual({
      expirationMinutes: 0,
      carryOverSlots: true,
    });
  });

  it('refuses a negative expiration time and an unknown key, where they are written', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': `session_config:\n  session_expiration_time: -1\n  carry_over_slots: true\n${SLOTS}${RESPONSES}`,
    });

    expect(errorLines(dir, result)).toEqual([
      expect.stringMatching(/^domain\.yml:2:\d+: .*session_expiration_time/),
      expect.stringMatching(/^domain\.yml:3:\d+: .*carry_over_slots/),
    ]);
  });

  it('takes the first domain file that sets it, and says so at the others', async () => {
    const { dir, result } = await loadProject({
      'domain.yml': undefined,
      'domain/a.yml': `session_config:\n  session_expiration_time: 10\n${SLOTS}${RESPONSES}`,
      'domain/b.yml': 'session_config:\n  session_expiration_time: 20\n',
    });
    if (!result.ok) throw new Error(errorLines(dir, result).join('\n'));
    expect(result.assistant.session?.expirationMinutes).toBe(10);
    expect(result.notes.map((n) => n.message)).toEqual([
      'session_config is set again; the first, at domain/a.yml:1:1, applies',
    ]);
  });
});
