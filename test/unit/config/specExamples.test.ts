import { describe, expect, it } from 'vitest';
import { errorLines, loadProject, type ProjectFilesSpec } from '../../helpers/project.js';

/**
 * Every configuration example of the specification, completed with what it references (model
 * groups, MCP servers, slots, modules, agent cards, environment variables). Each must validate.
 */

const MODEL_GROUP = `model_groups:
  - id: main
    models:
      - provider: openai
        model: gpt-4.1
  - id: openai-gpt-5-1
    models:
      - provider: openai
        model: gpt-5.1-2025-11-13
`;

const withServers = (servers: string) => `${MODEL_GROUP}mcp_servers:\n${servers}`;

const TRADE_SERVER = withServers(
  '  - name: trade_server\n    url: http://localhost:8080\n    type: http\n',
);
const RESEARCH_SERVER = withServers(
  '  - name: research_server\n    url: http://localhost:8081\n    type: http\n',
);

const AGENT_CARD = JSON.stringify({
  name: 'Car shopping agent',
  description: 'Helps users shop for cars',
  url: 'http://localhost:10002/',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text'],
  defaultOutputModes: ['text'],
  skills: [],
});

const CREDENTIAL_HOOKS = `export async function resolve_a2a_shopping_meta() {
  return { metadata: {} };
}
export async function resolve_appointment_booking_meta() {
  return { metadata: {} };
}
`;

const SLOTS_FOR_META = `slots:
  name:
    type: text
  confirmed:
    type: bool
  user_id:
    type: text
  role:
    type: text
responses:
  utter_ask_name:
    - text: What is your name?
  utter_done:
    - text: Done.
`;

interface SpecExample {
  readonly example: string;
  readonly files: ProjectFilesSpec;
  readonly env?: Readonly<Record<string, string>>;
}

const examples: SpecExample[] = [
  {
    example: 'sub agent overview: the common config.yml structure',
    files: {
      'sub_agents/helper/config.yml': undefined,
      'sub_agents/your_agent_name/config.yml': `agent:
  name: your_agent_name
  protocol: RASA
  description: "Brief description of what this agent does"

configuration:
  module: "path.to.custom.module"

connections:
  mcp_servers:
    - name: tools
`,
      'path/to/custom.ts': 'export class module {}\n',
    },
  },
  {
    example: 'ReAct: the stock_explorer configuration (one tool filter)',
    files: {
      'endpoints.yml': TRADE_SERVER,
      'sub_agents/helper/config.yml': undefined,
      'sub_agents/stock_explorer/config.yml': `agent:
  name: stock_explorer
  protocol: RASA
  description: "Agent that helps users research and analyze stock options"

configuration:
  llm:
    model_group: openai-gpt-5-1
  prompt_template: sub_agents/stock_explorer/prompt_template.jinja2
  timeout: 30
  max_retries: 3
  include_date_time: true
  timezone: "UTC"
  enable_filler_messages: true
  tool_timeout: 30.0
  module: "path.to.custom.module"

connections:
  mcp_servers:
  - name: trade_server
    include_tools:
    - find_symbol
    - get_company_news
    - apply_technical_analysis
    - fetch_live_price
`,
      'sub_agents/stock_explorer/prompt_template.jinja2':
        '{{ description }}{% if current_datetime %} {{ current_datetime.strftime("%d %B, %Y") }} ({{ current_datetime.tzname() }}){% endif %}',
      'path/to/custom.ts': 'export class module {}\n',
    },
  },
  {
    example: 'ReAct: llm with model-group and a time zone',
    files: {
      'endpoints.yml': TRADE_SERVER,
      'sub_agents/helper/config.yml': undefined,
      'sub_agents/stock_explorer/config.yml': `agent:
  name: stock_explorer
  description: "Agent that helps users research and analyze stock options"
configuration:
  llm:
    model-group: openai-gpt-5-1
  include_date_time: true
  timezone: "America/New_York"
connections:
  mcp_servers:
    - name: trade_server
`,
    },
  },
  {
    example: 'ReAct: a custom module on a general-purpose agent',
    files: {
      'endpoints.yml': RESEARCH_SERVER,
      'sub_agents/helper/config.yml': undefined,
      'sub_agents/car_research_agent/config.yml': `agent:
  name: car_research_agent
  description: "Researches cars and recommends models"

configuration:
  module: "custom.car_research_agent.CarResearchAgent"
  llm:
    model_group: openai-gpt-5-1

connections:
  mcp_servers:
    - name: research_server
`,
      'custom/car_research_agent.ts': 'export class CarResearchAgent {}\n',
    },
  },
  {
    example: 'A2A: the car shopping agent with a call-time credential hook',
    files: {
      'sub_agents/car_shopping_agent/config.yml': `agent:
  name: car_shopping_agent
  protocol: A2A
  description: "Helps users shop for cars"

configuration:
  agent_card: ./sub_agents/car_shopping_agent/agent_card.json
  pre_call_hook: custom.call_time_credentials.resolve_a2a_shopping_meta
`,
      'sub_agents/car_shopping_agent/agent_card.json': AGENT_CARD,
      'custom/call_time_credentials.ts': CREDENTIAL_HOOKS,
    },
  },
  {
    example: 'A2A: every configuration key',
    files: {
      'sub_agents/car_shopping_agent/config.yml': `agent:
  name: car_shopping_agent
  protocol: A2A
  description: "Helps users shop for cars"

configuration:
  agent_card: ./sub_agents/car_shopping_agent/agent_card.json
  push_notification_url: https://rasa.example.com
  max_polling_time: 60
  polling_initial_delay: 0.5
  pre_call_hook: custom.call_time_credentials.resolve_a2a_shopping_meta
`,
      'sub_agents/car_shopping_agent/agent_card.json': AGENT_CARD,
      'custom/call_time_credentials.ts': CREDENTIAL_HOOKS,
    },
  },
  {
    example: 'MCP: basic configuration',
    files: {
      'endpoints.yml': withServers(
        '  - name: tools\n    url: http://localhost:9000\n    type: http\n  - name: trade_server\n    url: http://localhost:8080\n    type: http\n',
      ),
    },
  },
  {
    example: 'MCP: multiple servers',
    files: {
      'endpoints.yml': withServers(`  - name: tools
    url: http://localhost:9000
  - name: inventory_server
    url: http://localhost:8080
    type: http
  - name: payment_server
    url: https://api.payment-service.com
    type: https
  - name: customer_database
    url: http://localhost:9000
    type: http
`),
    },
  },
  {
    example: 'MCP: each authentication method',
    files: {
      'endpoints.yml': withServers(`  - name: tools
    url: http://localhost:9000
  - name: secure_api_server
    url: https://api.example.com
    type: https
    api_key: "\${API_KEY}"
  - name: custom_header_server
    url: https://api.example.com
    type: https
    api_key: "\${API_KEY}"
    header_name: "X-API-Key"
    header_format: "{key}"
  - name: oauth_server
    url: https://api.example.com
    type: https
    oauth:
      client_id: "\${CLIENT_ID}"
      client_secret: "\${CLIENT_SECRET}"
      token_url: "https://auth.example.com/oauth/token"
      scope: "read:data write:data"
  - name: token_server
    url: https://api.example.com
    type: https
    token: "\${ACCESS_TOKEN}"
  - name: custom_auth_server
    url: https://api.example.com
    type: https
    api_key: "\${API_KEY}"
    header_name: "X-Custom-Auth"
    header_format: "Bearer {key}"
  - name: oauth_server_with_scopes
    url: https://api.example.com
    type: https
    oauth:
      client_id: "\${CLIENT_ID}"
      client_secret: "\${CLIENT_SECRET}"
      token_url: "https://auth.example.com/oauth/token"
      scope: "read:users write:orders admin:settings"
      audience: "https://api.example.com"
      timeout: 10
`),
    },
    env: { API_KEY: 'k', CLIENT_ID: 'id', CLIENT_SECRET: 's', ACCESS_TOKEN: 't' },
  },
  {
    example: 'MCP: the complete example',
    files: {
      'endpoints.yml': withServers(`  - name: tools
    url: http://localhost:9000
  - name: weather_service
    url: https://api.weather.com
    type: https
    api_key: "\${WEATHER_API_KEY}"
  - name: internal_database
    url: https://db.internal.com
    type: https
    oauth:
      client_id: "\${DB_CLIENT_ID}"
      client_secret: "\${DB_CLIENT_SECRET}"
      token_url: "https://auth.internal.com/oauth/token"
      scope: "database:read database:write"
  - name: local_tools
    url: http://localhost:8080
    type: http
  - name: custom_auth_server
    url: https://api.example.com
    type: https
    api_key: "\${API_KEY}"
    header_name: "X-API-Key"
    header_format: "{key}"
`),
    },
    env: { WEATHER_API_KEY: 'w', DB_CLIENT_ID: 'id', DB_CLIENT_SECRET: 's', API_KEY: 'k' },
  },
  {
    example: 'MCP: pre_call_hook with static metadata',
    files: {
      'endpoints.yml': withServers(`  - name: tools
    url: http://localhost:9000
  - name: appointment_booking
    url: http://appointment-booking:8000/mcp/
    type: http
    pre_call_hook: custom.call_time_credentials.resolve_appointment_booking_meta
    meta_map:
      static:
        api_version: "v2"
`),
      'custom/call_time_credentials.ts': CREDENTIAL_HOOKS,
    },
  },
  {
    example: 'MCP: meta_map from slots (no type: taken from the URL)',
    files: {
      'endpoints.yml': withServers(`  - name: tools
    url: http://localhost:9000
  - name: internal_api
    url: http://internal-api:8000/mcp/
    meta_map:
      from_slots:
        - slot: user_id
          param: user_id
        - slot: role
          param: user_role
      static:
        api_version: "v2"
        source: "rasa_agent"
`),
      'domain.yml': SLOTS_FOR_META,
    },
  },
];

describe('configuration examples of the specification', () => {
  it.each(examples)('$example', async ({ files, env }) => {
    const { dir, result } = await loadProject(files, env);
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('rejects the illustrative stock_explorer file that lists both include_tools and exclude_tools', async () => {
    const { dir, result } = await loadProject({
      'endpoints.yml': TRADE_SERVER,
      'sub_agents/helper/config.yml': `agent:
  name: stock_explorer
  description: x
connections:
  mcp_servers:
  - name: trade_server
    include_tools:
    - find_symbol
    exclude_tools:
    - place_buy_order
`,
    });
    expect(errorLines(dir, result)).toEqual([
      'sub_agents/helper/config.yml:9:5: connections.mcp_servers[0].exclude_tools cannot be used together with "include_tools": list the tools to include or the tools to exclude, not both',
    ]);
  });
});
