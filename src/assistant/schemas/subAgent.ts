import * as z from 'zod';
import {
  authShape,
  LlmConfig,
  ModulePath,
  NonEmptyString,
  PositiveNumber,
  strictObject,
} from './common.js';

/** Protocol names are case-insensitive in files; we keep them upper-case. */
export const AgentProtocol = z.preprocess(
  (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  z.enum(['RASA', 'A2A']),
);
export type AgentProtocol = z.infer<typeof AgentProtocol>;

export const AgentSection = strictObject({
  name: NonEmptyString.regex(/^[A-Za-z_][\w-]*$/, {
    error: 'must start with a letter or _ and contain only letters, digits, _ and -',
  }),
  protocol: AgentProtocol.default('RASA'),
  description: NonEmptyString,
});
export type AgentSection = z.infer<typeof AgentSection>;

/** True when `zone` is an IANA time zone name this runtime knows. */
export function isIanaTimeZone(zone: string): boolean {
  if (/^[+-]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = z.string().refine(isIanaTimeZone, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not an IANA time zone (e.g. "Europe/Berlin")`,
});

export const McpConnection = strictObject({
  name: NonEmptyString,
  include_tools: z.array(NonEmptyString).optional(),
  exclude_tools: z.array(NonEmptyString).optional(),
});
export type McpConnection = z.infer<typeof McpConnection>;

export const ReactConfiguration = strictObject({
  llm: LlmConfig.optional(),
  prompt_template: NonEmptyString.optional(),
  timeout: PositiveNumber.optional(),
  max_retries: z.number().int().min(0).default(3),
  include_date_time: z.boolean().default(true),
  timezone: TimeZone.default('UTC'),
  enable_filler_messages: z.boolean().default(true),
  tool_timeout: PositiveNumber.optional(),
  module: ModulePath.optional(),
});
export type ReactConfiguration = z.infer<typeof ReactConfiguration>;

export const ReactAgentFile = strictObject({
  agent: AgentSection,
  configuration: ReactConfiguration.default(() => ReactConfiguration.parse({})),
  connections: strictObject({
    mcp_servers: z
      .array(McpConnection)
      .min(1, { error: 'must list at least one MCP server from endpoints.yml' }),
  }),
});
export type ReactAgentFile = z.infer<typeof ReactAgentFile>;

export const A2AConfiguration = strictObject({
  agent_card: NonEmptyString,
  push_notification_url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional(),
  max_polling_time: PositiveNumber.default(60),
  polling_initial_delay: PositiveNumber.default(0.5),
  /** Seconds a task may work after the message, push or not; then it is cancelled. */
  task_timeout: PositiveNumber.default(600),
  timeout: PositiveNumber.optional(),
  max_retries: z.number().int().min(0).default(3),
  pre_call_hook: ModulePath.optional(),
  module: ModulePath.optional(),
  auth: strictObject(authShape).optional(),
});
export type A2AConfiguration = z.infer<typeof A2AConfiguration>;

export const A2AAgentFile = strictObject({
  agent: AgentSection,
  configuration: A2AConfiguration,
});
export type A2AAgentFile = z.infer<typeof A2AAgentFile>;
