/**
 * The peers of the `react` benchmark, run as a child process so that their CPU is not counted:
 * an OpenAI-compatible model that answers at once and an MCP server with an `echo` tool. The
 * model calls `echo` until the conversation holds `REACT_ITERATIONS` tool results, then (when
 * offered) `task_completed`. Prints `{"modelUrl", "mcpUrl"}` when ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMcpHost } from '../src/demo/index.js';
import { echoServer } from './mcp.bench.js';

const ITERATIONS = Number(process.env.REACT_ITERATIONS ?? 10);

interface Body {
  readonly messages: { role: string }[];
  readonly tools?: { function: { name: string } }[];
}

function answer(body: Body, id: number) {
  const results = body.messages.filter((m) => m.role === 'tool').length;
  const offered = new Set((body.tools ?? []).map((t) => t.function.name));
  const call = (name: string, args: object) => ({
    id: `call_${id}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  const message =
    results >= ITERATIONS && offered.has('task_completed')
      ? { role: 'assistant', content: 'Done.', tool_calls: [call('task_completed', {})] }
      : offered.has('echo')
        ? {
            role: 'assistant',
            content: '',
            tool_calls: [call('echo', { text: `step ${results}` })],
          }
        : { role: 'assistant', content: 'Done.' };
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'bench',
    choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

let requests = 0;
const model = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer(body, ++requests)));
});
await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));

const mcp = await startMcpHost({ createServer: echoServer });
const { port } = model.address() as AddressInfo;
process.stdout.write(
  `${JSON.stringify({ modelUrl: `http://127.0.0.1:${port}/v1`, mcpUrl: mcp.url })}\n`,
);
