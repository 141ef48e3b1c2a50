import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { assistantFrom } from '../../helpers/dialogue.js';
import { type Emulators, startEmulators } from '../../helpers/emulators.js';
import { BASE_PROJECT } from '../../helpers/project.js';
import { sayThroughWebhook, type TestRuntime, testRuntime } from '../../helpers/runtime.js';

/**
 * Conversations stored by a release stay readable by the releases after it. Each release adds
 * the items it writes for a conversation in the middle of a flow to `test/fixtures/stored/`
 * (`SWITCHBOARD_WRITE_STORED_FIXTURE=1 npx vitest run <this file>`); this test goes on with the
 * conversation of every release's fixture, as a deployment updated under it would.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/stored');
const RELEASES = ['0.1.0'];
const SENDER = 'stored-ada';

interface Fixture {
  readonly release: string;
  /** When the items were written (ms since the epoch): the test's clock starts a minute later. */
  readonly writtenAt: number;
  readonly items: Record<string, unknown>[];
}

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
}, 30_000);
afterAll(async () => {
  await emulators?.close();
});

const say = (rt: TestRuntime, message: string) => sayThroughWebhook(rt, SENDER, message);

/** Binary attributes (deflated JSON) as base64 in the fixture's JSON. */
const encode = (value: unknown): unknown =>
  value instanceof Uint8Array
    ? { $bytes: Buffer.from(value).toString('base64') }
    : Array.isArray(value)
      ? value.map(encode)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]))
        : value;
const decode = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(decode)
    : value !== null && typeof value === 'object'
      ? '$bytes' in value
        ? new Uint8Array(Buffer.from(String((value as { $bytes: string }).$bytes), 'base64'))
        : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]))
      : value;

describe('conversations stored by earlier releases', () => {
  it.runIf(process.env.SWITCHBOARD_WRITE_STORED_FIXTURE === '1')(
    'writes this release’s fixture',
    async () => {
      const writtenAt = Date.now();
      const rt = await testRuntime(emulators, await assistantFrom(BASE_PROJECT), {
        now: () => writtenAt,
        replyWaitMs: 20_000,
      });
      rt.llm.reply('start flow greet');
      expect(await say(rt, 'hi')).toEqual(['What is your name?']);
      const { Items = [] } = await emulators.documents.send(
        new QueryCommand({
          TableName: emulators.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `conv#${SENDER}` },
        }),
      );
      const fixture: Fixture = { release: packageJson.version, writtenAt, items: Items };
      await writeFile(
        path.join(FIXTURES, `${packageJson.version}.json`),
        `${JSON.stringify(encode(fixture), null, 2)}\n`,
      );
    },
  );

  it.each(RELEASES)(
    'go on with a conversation %s left in the middle of a flow',
    async (release) => {
      const fixture = decode(
        JSON.parse(await readFile(path.join(FIXTURES, `${release}.json`), 'utf8')),
      ) as Fixture;
      expect(fixture.items.length).toBeGreaterThan(0);
      for (const item of fixture.items) {
        await emulators.documents.send(
          new PutCommand({ TableName: emulators.tableName, Item: item }),
        );
      }
      const rt = await testRuntime(emulators, await assistantFrom(BASE_PROJECT), {
        now: () => fixture.writtenAt + 60_000,
        replyWaitMs: 20_000,
      });

      rt.llm.reply('set slot name Ada');
      expect(await say(rt, 'Ada')).toEqual(['Done, Ada.', 'Can I help you with anything else?']);
      const tracker = await rt.http.handle({
        method: 'GET',
        path: `/conversations/${SENDER}/tracker`,
        headers: {},
      });
      const events = (tracker.body as { events: { event: string; text?: string }[] }).events;
      expect(events.filter((e) => e.event === 'user').map((e) => e.text)).toEqual(['hi', 'Ada']);
    },
  );
});
