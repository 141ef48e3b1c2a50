import { describe, expect, it } from 'vitest';
import {
  McpRequestError,
  McpToolRefusedError,
  McpUnavailableError,
  OAuthTokenError,
  PreCallHookError,
} from '../../../src/mcp/errors.js';
import { codeOf, isTransient } from '../../../src/resilience/index.js';

describe('McpUnavailableError', () => {
  it('names the server, says a later try may succeed and keeps its cause', () => {
    const cause = new Error('connect ECONNREFUSED');

    const error = new McpUnavailableError('weather', 'could not be reached', { cause });

    expect(String(error)).toBe('McpUnavailableError: MCP server weather: could not be reached');
    expect(codeOf(error)).toBe('MCP_UNAVAILABLE');
    expect(isTransient(error)).toBe(true);
    expect(error.serverName).toBe('weather');
    expect(error.cause).toBe(cause);
  });
});

describe('McpRequestError', () => {
  it('names the server and says trying again will not help', () => {
    const error = new McpRequestError('weather', 'refused the arguments');

    expect(String(error)).toBe('McpRequestError: MCP server weather: refused the arguments');
    expect(codeOf(error)).toBe('MCP_REQUEST_REFUSED');
    expect(isTransient(error)).toBe(false);
    expect(error.serverName).toBe('weather');
  });
});

describe('McpToolRefusedError', () => {
  it('says the tool is not offered and that trying again will not help', () => {
    const error = new McpToolRefusedError('tool get_weather is not offered to this agent');

    expect(String(error)).toBe(
      'McpToolRefusedError: tool get_weather is not offered to this agent',
    );
    expect(codeOf(error)).toBe('MCP_TOOL_NOT_OFFERED');
    expect(isTransient(error)).toBe(false);
  });
});

describe('PreCallHookError', () => {
  it('names the hook and what went wrong with it', () => {
    const error = new PreCallHookError('hooks.addTenant', 'threw: no tenant');

    expect(String(error)).toBe('PreCallHookError: pre_call_hook hooks.addTenant threw: no tenant');
    expect(codeOf(error)).toBe('PRE_CALL_HOOK_FAILED');
    expect(isTransient(error)).toBe(false);
    expect(error.hook).toBe('hooks.addTenant');
  });
});

describe('OAuthTokenError', () => {
  it('names the token endpoint and says whether a later try may succeed', () => {
    const busy = new OAuthTokenError('https://auth.example/token', 'answered HTTP 503', true);
    const refused = new OAuthTokenError('https://auth.example/token', 'answered HTTP 401', false);

    expect(String(busy)).toBe(
      'OAuthTokenError: token endpoint https://auth.example/token answered HTTP 503',
    );
    expect(codeOf(busy)).toBe('OAUTH_TOKEN_FAILED');
    expect(isTransient(busy)).toBe(true);
    expect(isTransient(refused)).toBe(false);
    expect(refused.tokenUrl).toBe('https://auth.example/token');
  });
});
