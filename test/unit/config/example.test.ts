import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Assistant, summarize } from '../../../src/assistant/index.js';
import { type LoadResult, loadAssistant } from '../../../src/config/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the example assistant', () => {
  let result: LoadResult;
  let assistant: Assistant;

  beforeAll(async () => {
    result = await loadAssistant({ projectDir: root });
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    assistant = result.assistant;
  });

  it('validates and exercises every kind of sub agent and MCP authentication', () => {
    const count = (items: object) => Object.keys(items).length;
    expect(summarize(assistant)).toBe(
      `${count(assistant.flows)} flows, ${count(assistant.slots)} slots, ` +
        `${count(assistant.responses)} responses, ${count(assistant.agents)} sub agents, ` +
        `${count(assistant.mcpServers)} MCP servers`,
    );
    const agents = Object.values(assistant.agents);
    expect(agents.map((a) => `${a.name}:${a.protocol}`).sort()).toEqual([
      'appointment_agent:RASA',
      'car_research_agent:RASA',
      'car_shopping_agent:A2A',
    ]);
    const servers = assistant.mcpServers;
    expect(servers.car_catalog?.api_key).toEqual({ secret: 'CAR_CATALOG_API_KEY' });
    expect(servers.dealer_directory?.header_name).toBe('X-API-Key');
    expect(servers.appointment_booking?.oauth?.client_secret).toEqual({
      secret: 'BOOKING_CLIENT_SECRET',
    });
    expect(servers.financing?.token).toEqual({ secret: 'FINANCING_TOKEN' });
  });

  it('has a task-specific agent call with exit_if and a direct MCP call with mapping', () => {
    const steps = assistant.flows.book_test_drive?.steps ?? [];
    expect(steps[0]).toMatchObject({ collect: 'car_model', reset_after_flow_ends: false });
    expect(steps[1]).toMatchObject({ call: 'appointment_agent', exit_if: [expect.any(String)] });
    expect(steps[3]).toMatchObject({
      call: 'book_appointment',
      mcp_server: 'appointment_booking',
      mapping: { output: [{ slot: 'booking_reference' }] },
    });
  });

  it('reads prompt templates, agent cards and extensions', () => {
    const research = assistant.agents.car_research_agent;
    expect(research?.protocol === 'RASA' && research.promptTemplate?.text).toContain(
      '{{ description }}',
    );
    const shopping = assistant.agents.car_shopping_agent;
    expect(shopping?.protocol === 'A2A' && shopping.agentCard).toMatchObject({
      kind: 'file',
      card: { name: 'Car shopping agent' },
    });
    expect(Object.keys(assistant.extensions).sort()).toEqual([
      'custom.call_time_credentials.resolveBookingCredentials',
      'custom.call_time_credentials.resolveShoppingMetadata',
      'custom.car_research_agent.CarResearchAgent',
    ]);
    expect(assistant.commandGenerator.promptTemplate?.file).toBe(
      path.join(root, 'prompts/command_generator.jinja2'),
    );
  });

  it('applies the defaults of the specification', () => {
    const appointment = assistant.agents.appointment_agent;
    expect(appointment?.configuration).toMatchObject({
      include_date_time: true,
      enable_filler_messages: true,
      max_retries: 2,
      timezone: 'Europe/Berlin',
    });
    const shopping = assistant.agents.car_shopping_agent;
    expect(shopping?.configuration).toMatchObject({
      max_polling_time: 60,
      polling_initial_delay: 0.5,
      task_timeout: 600,
    });
  });

  it('is immutable', () => {
    expect(Object.isFrozen(assistant)).toBe(true);
    expect(Object.isFrozen(assistant.flows.book_test_drive?.steps)).toBe(true);
    expect(() => {
      (assistant.slots as Record<string, unknown>).extra = {};
    }).toThrow(TypeError);
  });

  it('keeps credential values out of the loaded assistant', () => {
    const text = JSON.stringify(assistant);
    for (const demoValue of [
      'demo-catalog-key',
      'demo-directory-key',
      'demo-booking-secret',
      'demo-financing-token',
      'demo-shopping-key',
    ]) {
      expect(text).not.toContain(demoValue);
    }
  });

  it('lists the Rasa keys it ignores, once per file', () => {
    const ignored = result.ignored.map((i) => `${path.relative(root, i.file)}:${i.key}`);
    expect(ignored).toEqual([
      'config.yml:recipe',
      'config.yml:language',
      'config.yml:assistant_id',
      'config.yml:policies',
    ]);
  });

  it('has no note: everything of Rasa it holds applies here, its session_config included', () => {
    const notes = result.notes.map((n) => `${path.relative(root, n.file)}:${n.line}: ${n.message}`);
    expect(notes).toEqual([]);
  });
});
