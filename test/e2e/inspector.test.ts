import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../helpers/browser.js';
import {
  demoPeersOnFreePorts,
  type RunningSwitchboard,
  startSwitchboard,
} from '../helpers/localProcess.js';

const executablePath = chromiumPath();
if (!executablePath) {
  console.warn(
    'SKIPPED: the inspector’s browser tests need Chromium (apt-get install chromium, or set SWITCHBOARD_CHROMIUM)',
  );
}

describe.skipIf(!executablePath)('the inspector in a browser', () => {
  let running: RunningSwitchboard;
  let browser: Browser;

  beforeAll(async () => {
    running = await startSwitchboard(await demoPeersOnFreePorts(), {
      SWITCHBOARD_REST_TOKEN: 'inspector-token',
    });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('chats, and shows the stack, slots, events and an agent run with its prompt', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${running.url}/inspect?token=inspector-token&sender=browser-user`);
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

    // A research agent's run: its filler, its answer, and its iterations with their tool calls.
    await page.click('#new');
    await page.fill('#text', 'Can you recommend an electric SUV under 50000?');
    await page.click('#say button');
    await page
      .locator('.msg.bot', { hasText: 'Here are some options' })
      .waitFor({ timeout: 30_000 });
    const run = page.locator('.run').first();
    await run.locator('.call').first().waitFor();
    expect(await run.textContent()).toMatch(/iteration 1/);
    await run.getByRole('button', { name: 'System prompt' }).click();
    await run.locator('pre').first().waitFor();
    expect(await run.locator('pre').first().textContent()).not.toBe('');
    const shot = process.env.SWITCHBOARD_INSPECTOR_SCREENSHOT;
    if (shot) await page.screenshot({ path: shot });
    await page.close();
  }, 90_000);

  it('refuses its API without the token', async () => {
    const response = await fetch(`${running.url}/inspect/api/conversations`);
    expect(response.status).toBe(401);
  });
});
