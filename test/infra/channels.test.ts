import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_PROJECT, writeProject } from '../helpers/project.js';
import { type Built, build, functionProps, secretArn, statementsOf } from './stackTemplates.js';

const CREDENTIALS = `rest:
callback:
  url: https://example.com/bot
slack:
  slack_token: \${SLACK_TOKEN}
  slack_signing_secret: \${SLACK_SIGNING_SECRET}
telegram:
  access_token: \${TELEGRAM_TOKEN}
  verify: example_bot
  secret_token: \${TELEGRAM_SECRET}
twilio:
  account_sid: AC0123
  auth_token: \${TWILIO_AUTH_TOKEN}
  twilio_number: "+14155550100"
socketio:
  user_message_evt: user_uttered
  bot_message_evt: bot_uttered
rasa:
  url: http://localhost:5002/api
`;

describe('StatelessStack with the messaging channels of credentials.yml', () => {
  let built: Built;

  beforeAll(async () => {
    const project = await writeProject({ ...BASE_PROJECT, 'credentials.yml': CREDENTIALS });
    built = await build({ project }, { bundle: false });
  });

  it('routes each channel’s webhook to the webhook function', () => {
    const routes = Object.values(built.template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /webhooks/callback/webhook',
        'POST /webhooks/slack/webhook',
        'POST /webhooks/telegram/webhook',
        'POST /webhooks/twilio/webhook',
        'POST /webhooks/socketio/webhook',
      ]),
    );
  });

  it("streams the web chat's messages from a function of its own that only reads the table", () => {
    const methods = Object.values(built.template.findResources('AWS::ApiGateway::Method'));
    const stream = methods.filter((m) => m.Properties.HttpMethod === 'GET');
    expect(stream).toHaveLength(1);
    expect(JSON.stringify(stream[0]?.Properties.Integration)).toContain('STREAM');
    const resources = Object.values(built.template.findResources('AWS::ApiGateway::Resource')).map(
      (r) => r.Properties.PathPart,
    );
    expect(resources).toEqual(expect.arrayContaining(['socketio', 'stream', '{sender}']));
    const statements = JSON.stringify(statementsOf(built, 'WebChat'));
    expect(statements).toContain('dynamodb:Query');
    expect(statements).not.toMatch(/dynamodb:(PutItem|UpdateItem|DeleteItem)|sqs:SendMessage/);
    expect(Object.keys(built.template.findOutputs('WebChatStreamUrl'))).toHaveLength(1);
  });

  it('gives the webhook and the worker the channels’ settings, with secrets as names only', () => {
    for (const name of ['Webhook', 'Worker'] as const) {
      const variables = (functionProps(built, name).Environment as { Variables: object })
        .Variables as Record<string, string>;
      const channels = JSON.parse(variables.CHANNELS ?? 'null');
      expect(Object.keys(channels).sort()).toEqual([
        'callback',
        'slack',
        'socketio',
        'telegram',
        'twilio',
      ]);
      expect(channels.slack.slack_signing_secret).toEqual({ secret: 'SLACK_SIGNING_SECRET' });
    }
  });

  it('lets the worker read every channel secret, and the webhook those that check requests', () => {
    const arn = (secret: string) => JSON.stringify(secretArn(`switchboard/${secret}`)).slice(1, -1);
    const webhook = JSON.stringify(statementsOf(built, 'Webhook'));
    const worker = JSON.stringify(statementsOf(built, 'Worker'));
    for (const secret of [
      'SLACK_SIGNING_SECRET',
      'TELEGRAM_SECRET',
      'TELEGRAM_TOKEN',
      'TWILIO_AUTH_TOKEN',
    ]) {
      expect(webhook).toContain(arn(secret));
      expect(worker).toContain(arn(secret));
    }
    // The bot token only posts replies: the worker's.
    expect(worker).toContain(arn('SLACK_TOKEN'));
    expect(webhook).not.toContain(arn('SLACK_TOKEN'));
  });

  it('passes the AWS Solutions checks', () => {
    const report = new AwsSolutionsChecks(built.stack).validateScope(built.stack);
    expect(report.violations).toEqual([]);
  });
});
