import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserRequired, chromiumPath } from '../helpers/browser.js';
import { type RunningSwitchboard, startDemoSwitchboard } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

const executablePath = chromiumPath();
if (!executablePath && !browserRequired()) {
  console.warn(
    'SKIPPED: the inspector’s browser tests need Chromium (apt-get install chromium, or set SWITCHBOARD_CHROMIUM)',
  );
}

describe.runIf(!executablePath && browserRequired())('the inspector in a browser, required', () => {
  it('has Chromium to run in', () => {
    throw new Error(
      'SWITCHBOARD_REQUIRE_BROWSER is set but no Chromium was found: apt-get install chromium, or set SWITCHBOARD_CHROMIUM',
    );
  });
});

describe.skipIf(!executablePath)('the inspector in a browser', () => {
  let running: RunningSwitchboard;
  let browser: Browser;

  beforeAll(async () => {
    running = await startDemoSwitchboard([], { SWITCHBOARD_REST_TOKEN: 'inspector-token' });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('chats, streams replies, and shows the stack, slots, events and each agent run as a timeline', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${running.url}/inspect?token=inspector-token&sender=browser-user`);
    // Every text a model writes shows in a bubble of its own until its message is committed.
    // (A string: the page's code runs in the browser, which this project's types do not describe.)
    await page.evaluate(`
      window.streamed = new Set();
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof Element && node.matches('.msg.bot.live')) window.streamed.add(node);
          }
        }
      }).observe(document.getElementById('messages'), { childList: true });
    `);
    await page.fill('#text', 'Hi, can someone call me back?');
    await page.click('#say button');
    await page.locator('.msg.bot', { hasText: 'What name should we ask for?' }).waitFor();
    // The stack and the events follow the conversation as it commits.
    await page.locator('#stack', { hasText: 'request_callback' }).waitFor();
    await page.fill('#text', 'Ada');
    await page.click('#say button');
    await page.locator('#slots', { hasText: 'customer_name' }).waitFor();
    expect(await page.locator('#slots').textContent()).toContain('Ada');
    // Stack snapshots are folded away, and open on a click.
    const fold = page.locator('.fold').first();
    await fold.waitFor();
    expect(await fold.textContent()).toMatch(/stack snapshots?/);
    const snapshots = fold.locator('xpath=following-sibling::div[1]');
    expect(await snapshots.isHidden()).toBe(true);
    await fold.click();
    expect(await snapshots.isVisible()).toBe(true);

    // The demo's three kinds of sub agent, each run on the page: ReAct (open and task-specific)
    // and A2A. Each line is typed once the reply before it shows.
    await page.click('#new');
    const turns: [string, string][] = [
      ['Can you recommend an electric SUV under 50000?', 'Here are some options'],
      ['Tell me about the Aurora EV', 'The Aurora EV costs'],
      ['That is all, thanks', 'Enjoy finding your car'],
      ['I would like to test drive it in Hamburg', 'Which suits you?'],
      ['Monday at 10', 'Shall I book a test drive'],
      ['/SetSlots(confirm_booking=true)', 'Booked!'],
      ['I would like to buy it', 'Which trim'],
      ['Touring', 'is ordered'],
    ];
    for (const [text, answer] of turns) {
      await page.fill('#text', text);
      await page.click('#say button');
      await page.locator('.msg.bot', { hasText: answer }).waitFor({ timeout: 30_000 });
    }
    // The research agent's answers streamed in, a few words at a time.
    const streamed = (await page.evaluate(
      '[...window.streamed].map((bubble) => bubble.textContent)',
    )) as string[];
    expect(streamed.some((text) => text?.startsWith('Here are some options'))).toBe(true);

    const runs = page.locator('.run');
    await page.locator('.run', { hasText: 'car_shopping_agent' }).first().waitFor();
    // The research agent ran three times (search, details, the goodbye); its first searched.
    const research = page.locator('.run', { hasText: 'search_cars' }).first();
    // Each iteration with its time, each step with its time and what it did, the last one with
    // how the run ended (that step wrote no record: the journal of this process has it).
    await research.locator('.steps li', { hasText: 'ended the run' }).waitFor();
    const timeline = (await research.textContent()) ?? '';
    expect(timeline).toMatch(/iteration 1 · \d+(\.\d)? m?s.*search_cars/s);
    expect(timeline).toMatch(/\d+(\.\d)? m?s · model asked for search_cars; ran search_cars/);
    expect(timeline).toMatch(/started .* · ended .*, after \d/);
    expect(timeline).toMatch(/ended the run: input_required — Here are some options/);
    // The answer that ended the run is its last iteration.
    expect(timeline).toMatch(/iteration 2 · \d+(\.\d)? m?sHere are some options/);
    // The A2A agent's runs (one an invocation: its question, then the answer to it), with the
    // task states they saw; the order's run ended completed.
    const shopping = page.locator('.run', { hasText: 'car_shopping_agent' });
    expect(await runs.count()).toBeGreaterThanOrEqual(3);
    const order = (await shopping.first().textContent()) ?? '';
    expect(order).toMatch(/task.*context/s);
    expect(order).toMatch(/task states.*completed \(/s);
    expect(order).toMatch(/ended the run: completed/);
    await research.getByRole('button', { name: 'System prompt' }).click();
    const prompt = research.locator('pre').first();
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('car research specialist');
    // A picture of the page, checked for its parts (a set path keeps it: the README's screenshot).
    const shot =
      process.env.SWITCHBOARD_INSPECTOR_SCREENSHOT ??
      path.join(await tempDir('switchboard-inspector-'), 'inspector.png');
    const png = await page.screenshot({ path: shot });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1400);
    for (const part of ['#messages', '#stack', '#slots', '#events', '#runs']) {
      expect(await page.locator(part).isVisible()).toBe(true);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('refuses its API without the token', async () => {
    const response = await fetch(`${running.url}/inspect/api/conversations`);
    expect(response.status).toBe(401);
  });
});
