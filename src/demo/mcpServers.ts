/**
 * Demo MCP servers for the example assistant, one per server of its `endpoints.yml`, each
 * checking the credential that file configures for it: `car_catalog` (API key as a bearer
 * token), `dealer_directory` (API key in `X-API-Key`), `appointment_booking` (OAuth 2.0 client
 * credentials from its own token endpoint; reads `_meta`) and `financing` (a pre-issued token).
 * Their data is fixed, so the same questions always get the same answers.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { IDEMPOTENCY_KEY_META } from '../mcp/index.js';
import { ANNUAL_RATE, CARS, DEALERS, FREE_SLOTS, monthlyPayment, searchFaq } from './catalog.js';
import { answer, type McpHost, readBody, startMcpHost } from './mcpHost.js';

/** What a demo server needs to know: where to listen and the credential values to accept. */
export interface DemoServerSettings {
  readonly port: number;
  /** Credential values by the name `endpoints.yml` references them with. */
  readonly secret: (name: string) => string | undefined;
}

/** A demo server's configuration, as the assistant's `endpoints.yml` holds it. */
export interface DemoServerConfig {
  readonly api_key?: { readonly secret: string };
  readonly header_name?: string;
  readonly header_format?: string;
  readonly token?: { readonly secret: string };
  readonly oauth?: {
    readonly client_id: string;
    readonly client_secret: { readonly secret: string };
  };
}

type DemoFactory = (config: DemoServerConfig, settings: DemoServerSettings) => Promise<McpHost>;

const json = (data: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(data) }],
  structuredContent: data as Record<string, unknown>,
});

/** An error result the model can read. */
const refusal = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });

function catalogServer(): McpServer {
  const server = new McpServer({ name: 'car_catalog', version: '1.0.0' });
  server.registerTool(
    'search_cars',
    {
      description: 'Search the car catalog by body type, fuel and highest price.',
      annotations: { readOnlyHint: true },
      inputSchema: {
        body: z.enum(['hatchback', 'sedan', 'suv', 'estate']).optional(),
        fuel: z.enum(['petrol', 'hybrid', 'electric']).optional(),
        max_price: z.number().positive().optional(),
      },
    },
    async ({ body, fuel, max_price }) =>
      json({
        cars: CARS.filter(
          (car) =>
            (body === undefined || car.body === body) &&
            (fuel === undefined || car.fuel === fuel) &&
            (max_price === undefined || car.price <= max_price),
        ).map(({ model, body, fuel, price }) => ({ model, body, fuel, price })),
      }),
  );
  server.registerTool(
    'get_car_details',
    {
      description: 'Price, range, seats, rating and a review summary of one model.',
      annotations: { readOnlyHint: true },
      inputSchema: { model: z.string() },
    },
    async ({ model }) => {
      const car = CARS.find((c) => c.model.toLowerCase() === model.toLowerCase());
      if (!car) {
        return refusal(`No model named ${model}; try search_cars.`);
      }
      return json(car);
    },
  );
  // The assistant's knowledge base: endpoints.yml's vector_store names this tool.
  server.registerTool(
    'search_faq',
    {
      description: "Answers from the dealership's questions and answers; empty when none fits.",
      annotations: { readOnlyHint: true },
      inputSchema: { query: z.string() },
    },
    async ({ query }) => ({
      content: searchFaq(query)
        .slice(0, 1)
        .map((text) => ({ type: 'text' as const, text })),
    }),
  );
  return server;
}

function directoryServer(): McpServer {
  const server = new McpServer({ name: 'dealer_directory', version: '1.0.0' });
  server.registerTool(
    'find_dealers',
    {
      description: 'Dealers that stock a model, optionally in one city.',
      inputSchema: { model: z.string().optional(), city: z.string().optional() },
    },
    async ({ model, city }) =>
      json({
        dealers: DEALERS.filter(
          (d) =>
            (model === undefined ||
              d.models.some((m) => m.toLowerCase() === model.toLowerCase())) &&
            (city === undefined || d.city.toLowerCase() === city.toLowerCase()),
        ),
      }),
  );
  server.registerTool(
    'delete_dealer',
    {
      description: 'Remove a dealer from the directory (administrators only).',
      inputSchema: { name: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ name }) => refusal(`The demo directory does not delete dealers (${name}).`),
  );
  return server;
}

function bookingServer(bookings: Map<string, string>): McpServer {
  const server = new McpServer({ name: 'appointment_booking', version: '1.0.0' });
  server.registerTool(
    'list_free_slots',
    {
      description: 'Free test-drive slots at a dealer.',
      inputSchema: { dealer: z.string() },
    },
    async ({ dealer }) => {
      if (!DEALERS.some((d) => d.name.toLowerCase() === dealer.toLowerCase())) {
        return refusal(`No dealer named ${dealer}.`);
      }
      return json({ dealer, slots: FREE_SLOTS });
    },
  );
  server.registerTool(
    'book_appointment',
    {
      description: 'Book a test drive; needs the customer id in the call metadata.',
      inputSchema: {
        dealer: z.string(),
        time: z.string(),
        car_model: z.string().nullable().optional(),
      },
    },
    async ({ dealer, time, car_model }, extra) => {
      const meta = extra._meta ?? {};
      const customer = meta['x-customer-id'] ?? meta.customer_id;
      if (typeof customer !== 'string' || customer === '') {
        return refusal('No customer id in the call metadata.');
      }
      // A repeated call (same idempotency key) gets the booking it already made.
      const key = String(meta[IDEMPOTENCY_KEY_META] ?? randomBytes(8).toString('hex'));
      let reference = bookings.get(key);
      if (!reference) {
        reference = `TD-${String(1001 + bookings.size)}`;
        bookings.set(key, reference);
      }
      return json({ reference, dealer, time, car_model: car_model ?? null, customer });
    },
  );
  return server;
}

function financingServer(): McpServer {
  const server = new McpServer({ name: 'financing', version: '1.0.0' });
  server.registerTool(
    'estimate_monthly_payment',
    {
      description: 'Monthly payment of a car loan at the demo lender’s fixed rate.',
      inputSchema: { amount: z.coerce.number().positive(), months: z.coerce.number().int().min(1) },
      outputSchema: { monthly_payment: z.number(), annual_rate: z.number() },
    },
    async ({ amount, months }) =>
      json({ monthly_payment: monthlyPayment(amount, months), annual_rate: ANNUAL_RATE }),
  );
  return server;
}

/** What a credential check reads of a request. */
type WithHeaders = Pick<IncomingMessage, 'headers'>;

/** Compares a header with the expected value in constant time; no expected value: refuse. */
function headerIs(request: WithHeaders, header: string, expected: string | undefined) {
  const got = request.headers[header.toLowerCase()];
  if (expected === undefined || typeof got !== 'string') return false;
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a request carries the API key `config` names, in its header and format. */
export function apiKeyCheck(
  config: DemoServerConfig,
  settings: Pick<DemoServerSettings, 'secret'>,
): (request: WithHeaders) => boolean {
  const key = config.api_key ? settings.secret(config.api_key.secret) : undefined;
  const header = config.header_name ?? 'Authorization';
  const format = config.header_format ?? 'Bearer {key}';
  const expected = key === undefined ? undefined : format.replaceAll('{key}', () => key);
  return (request: WithHeaders) => headerIs(request, header, expected);
}

/** Tokens the booking server issued, with their expiry; each lasts `TOKEN_SECONDS`. */
const TOKEN_SECONDS = 3600;

function tokenEndpoint(config: DemoServerConfig, settings: DemoServerSettings) {
  const issued = new Map<string, number>();
  const secretName = config.oauth?.client_secret.secret;
  const route = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/oauth/token') return false;
    const form = new URLSearchParams(await readBody(request));
    const secret = secretName === undefined ? undefined : settings.secret(secretName);
    const valid =
      form.get('grant_type') === 'client_credentials' &&
      form.get('client_id') === config.oauth?.client_id &&
      secret !== undefined &&
      form.get('client_secret') === secret;
    if (!valid) {
      answer(response, 401, { error: 'invalid_client' });
      return true;
    }
    const token = randomBytes(24).toString('base64url');
    issued.set(token, Date.now() + TOKEN_SECONDS * 1000);
    answer(response, 200, { access_token: token, token_type: 'Bearer', expires_in: TOKEN_SECONDS });
    return true;
  };
  const authorize = (request: IncomingMessage) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const expires = issued.get(token);
    return expires !== undefined && Date.now() < expires;
  };
  return { route, authorize };
}

/** The demo servers by the names the example's `endpoints.yml` gives them. */
export const DEMO_SERVERS: Readonly<Record<string, DemoFactory>> = {
  car_catalog: (config, settings) =>
    startMcpHost({
      port: settings.port,
      createServer: catalogServer,
      authorize: apiKeyCheck(config, settings),
    }),
  dealer_directory: (config, settings) =>
    startMcpHost({
      port: settings.port,
      createServer: directoryServer,
      authorize: apiKeyCheck(config, settings),
    }),
  appointment_booking: (config, settings) => {
    const tokens = tokenEndpoint(config, settings);
    const bookings = new Map<string, string>();
    return startMcpHost({
      port: settings.port,
      createServer: () => bookingServer(bookings),
      authorize: tokens.authorize,
      routes: tokens.route,
    });
  },
  financing: (config, settings) => {
    const token = config.token ? settings.secret(config.token.secret) : undefined;
    return startMcpHost({
      port: settings.port,
      createServer: financingServer,
      authorize: (request) =>
        headerIs(request, 'Authorization', token === undefined ? undefined : `Bearer ${token}`),
    });
  },
};
