import { describe, expect, it } from 'vitest';
import { errorLines, loadProject } from '../../helpers/project.js';

describe('credentials.yml', () => {
  it('loads the channels Switchboard serves, with their secrets as names', async () => {
    const { dir, result } = await loadProject(
      {
        'credentials.yml': `rest:
callback:
  url: https://example.com/bot
slack:
  slack_token: \${SLACK_TOKEN}
  slack_signing_secret: \${SLACK_SIGNING_SECRET}
telegram:
  access_token: \${TELEGRAM_TOKEN}
  secret_token: \${TELEGRAM_SECRET}
twilio:
  account_sid: AC01
  auth_token: \${TWILIO_AUTH_TOKEN}
  twilio_number: "+14155550100"
socketio:
`,
      },
      {
        SLACK_TOKEN: 'x',
        SLACK_SIGNING_SECRET: 'x',
        TELEGRAM_TOKEN: 'x',
        TELEGRAM_SECRET: 'x',
        TWILIO_AUTH_TOKEN: 'x',
      },
    );
    expect(errorLines(dir, result)).toEqual([]);
    if (!result.ok) throw new Error('not loaded');
    expect(result.assistant.channels?.slack?.slack_token).toEqual({ secret: 'SLACK_TOKEN' });
    expect(Object.keys(result.assistant.channels ?? {}).sort()).toEqual([
      'callback',
      'slack',
      'socketio',
      'telegram',
      'twilio',
    ]);
  });

  it('notes the channels it does not serve, whose variables need no value', async () => {
    const { dir, result } = await loadProject({
      'credentials.yml': `rest:
facebook:
  verify: x
  secret: \${FB_SECRET}
rasa:
  url: http://localhost:5002/api
socketio:
  jwt_key: \${JWT}
`,
    });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.notes.map((n) => n.message.split(':')[0])).toEqual(
      expect.arrayContaining(['facebook', 'rasa', 'jwt_key']),
    );
  });

  it('refuses a Telegram block without secret_token', async () => {
    const { dir, result } = await loadProject(
      { 'credentials.yml': 'telegram:\n  access_token: ${TELEGRAM_TOKEN}\n' },
      { TELEGRAM_TOKEN: 'x' },
    );
    expect(errorLines(dir, result)).toEqual([
      expect.stringMatching(/^credentials\.yml:1:1: telegram needs secret_token/),
    ]);
  });

  it('refuses literal secrets and a callback URL with a password', async () => {
    const { dir, result } = await loadProject(
      {
        'credentials.yml': `slack:
  slack_token: xoxb-literal
  slack_signing_secret: \${SLACK_SIGNING_SECRET}
callback:
  url: https://user:pass@example.com/bot
`,
      },
      { TELEGRAM_TOKEN: 'x', SLACK_SIGNING_SECRET: 'x' },
    );
    const errors = errorLines(dir, result);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^credentials\.yml:2:16: slack\.slack_token/),
        expect.stringMatching(/^credentials\.yml:5:8: .*must not hold a user name or password/),
      ]),
    );
  });
});
