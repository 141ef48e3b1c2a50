import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../helpers/browser.js';
import { type RunningSwitchboard, startDemoSwitchboard } from '../helpers/localProcess.js';

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
    running = await startDemoSwitchboard([], { SWITCHBOARD_REST_TOKEN: 'inspector-token' });
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
    const runs = page.locator('.run');
    await page.locator('.run', { hasText: 'car_shopping_agent' }).first().waitFor();
    // The research agent ran three times (search, details, the goodbye); its first searched.
    const research = page.locator('.run', { hasText: 'search_cars' });
    expect(await research.textContent()).toMatch(/iteration 1.*search_cars/s);
    // When the run began, and that its last step (which wrote no record) is in the events.
    expect(await research.textContent()).toMatch(/started .*its last step is not recorded/);
    // The A2A agent's runs (one an invocation: its question, then the answer to it).
    const shopping = page.locator('.run', { hasText: 'car_shopping_agent' }).last();
    expect(await shopping.textContent()).toMatch(/task.*context/s);
    expect(await runs.count()).toBeGreaterThanOrEqual(3);
    await research.getByRole('button', { name: 'System prompt' }).click();
    const prompt = research.locator('pre').first();
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('car research specialist');
    const shot = process.env.SWITCHBOARD_INSPECTOR_SCREENSHOT;
    if (shot) await page.screenshot({ path: shot });
    await page.close();
  }, 180_000);

  it('refuses its API without the token', async () => {
    const response = await fetch(`${running.url}/inspect/api/conversations`);
    expect(response.status).toBe(401);
  });
});
