import { describe, expect, it } from 'vitest';
import { loadAssistant, projectEnvironment } from '../../../src/config/index.js';
import { BASE_PROJECT, errorLines, writeProject } from '../../helpers/project.js';

const endpointsWith = (server: string) =>
  (BASE_PROJECT['endpoints.yml'] ?? '').replace('mcp_servers:\n', `mcp_servers:\n${server}`);

describe('environment variables', () => {
  it('reads the project .env, and the real environment wins over it', async () => {
    const dir = await writeProject({ '.env': 'HOST=from-file\nPORT=1\n# comment\n' });
    const env = await projectEnvironment(dir, { PORT: '2' });
    expect(env.HOST).toBe('from-file');
    expect(env.PORT).toBe('2');
  });

  it('works without a .env file', async () => {
    const dir = await writeProject({});
    expect(await projectEnvironment(dir, { A: 'b' })).toEqual({ A: 'b' });
  });

  it('substitutes ${VAR} anywhere inside a string', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': endpointsWith('  - name: remote\n    url: http://${HOST}:${PORT}/mcp\n'),
    });
    const result = await loadAssistant({
      projectDir: dir,
      env: { HOST: 'tools.local', PORT: '9100' },
    });
    expect(result.ok && result.assistant.mcpServers.remote?.url).toBe(
      'http://tools.local:9100/mcp',
    );
  });

  it('uses the project .env when no environment is given', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      '.env': 'REMOTE_KEY=abc\n',
      'endpoints.yml': endpointsWith(
        '  - name: remote\n    url: https://tools.example.com/mcp\n    api_key: ${REMOTE_KEY}\n',
      ),
    });
    const result = await loadAssistant({ projectDir: dir });
    expect(result.ok && result.assistant.mcpServers.remote?.api_key).toEqual({
      secret: 'REMOTE_KEY',
    });
  });

  it('names every missing variable', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': endpointsWith('  - name: remote\n    url: http://${HOST}:${PORT}/mcp\n'),
    });
    const result = await loadAssistant({ projectDir: dir, env: {} });
    expect(errorLines(dir, result)).toEqual([
      "endpoints.yml:8:10: mcp_servers[0].url uses environment variable HOST, which is not set (set it in the environment or in the project's .env file)",
      "endpoints.yml:8:10: mcp_servers[0].url uses environment variable PORT, which is not set (set it in the environment or in the project's .env file)",
    ]);
  });

  it('passes over an empty credential key, which holds no secret', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      // Rasa components other than the command generator are ignored, keys and all.
      'config.yml': `${BASE_PROJECT['config.yml']}  - name: LLMBasedRouter\n    llm:\n      api_key:\n`,
    });
    const result = await loadAssistant({ projectDir: dir, env: {} });
    expect(errorLines(dir, result)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('does not require credential variables when a secret store resolves them later', async () => {
    const dir = await writeProject({
      ...BASE_PROJECT,
      'endpoints.yml': endpointsWith(
        '  - name: remote\n    url: https://tools.example.com/mcp\n    token: ${REMOTE_TOKEN}\n',
      ),
    });
    const result = await loadAssistant({ projectDir: dir, env: {}, requireSecretValues: false });
    expect(result.ok && result.assistant.mcpServers.remote?.token).toEqual({
      secret: 'REMOTE_TOKEN',
    });
  });
});
