import * as z from 'zod';
import type { McpCallResult } from './client.js';

/** Characters of a tool result a model reads at most. */
export const MAX_TOOL_RESULT_CHARS = 20_000;

const Part = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), mimeType: z.string().optional(), data: z.string() }),
  z.looseObject({ type: z.literal('audio'), mimeType: z.string().optional(), data: z.string() }),
  z.looseObject({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('resource'),
    resource: z.looseObject({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
    }),
  }),
]);

/**
 * A tool's result as a chat model can read it: text as it is; images, audio and binary
 * resources as a short note of their kind and size; resource links with their URI; structured
 * content as JSON unless a text part already carries it. Longer than `maxChars`, it is cut and
 * says so.
 */
export function toolResultText(result: McpCallResult, maxChars = MAX_TOOL_RESULT_CHARS): string {
  const lines: string[] = [];
  for (const raw of result.content) {
    const parsed = Part.safeParse(raw);
    if (!parsed.success) {
      lines.push(`[content of an unsupported kind: ${kindOf(raw)}]`);
      continue;
    }
    const part = parsed.data;
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'image':
      case 'audio':
        lines.push(`[${part.type} ${part.mimeType ?? ''}, ${decodedBytes(part.data)} bytes]`);
        break;
      case 'resource_link': {
        const about = [part.name, part.description].filter(Boolean).join(': ');
        lines.push(`[resource ${part.uri}${about ? ` (${about})` : ''}]`);
        break;
      }
      case 'resource': {
        const { resource } = part;
        if (resource.text !== undefined) lines.push(`[resource ${resource.uri}]\n${resource.text}`);
        else {
          const size = resource.blob === undefined ? 0 : decodedBytes(resource.blob);
          lines.push(`[resource ${resource.uri}, ${resource.mimeType ?? 'binary'}, ${size} bytes]`);
        }
        break;
      }
      default:
        return assertNever(part);
    }
  }
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    if (!lines.some((line) => sameJson(line, json))) lines.push(json);
  }
  const text = lines.join('\n');
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[truncated: the first ${maxChars} of ${text.length} characters]`;
}

function sameJson(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}

function decodedBytes(base64: string): number {
  return Buffer.byteLength(base64, 'base64');
}

function kindOf(part: unknown): string {
  if (typeof part === 'object' && part !== null && 'type' in part) return String(part.type);
  return typeof part;
}

function assertNever(value: never): never {
  throw new Error(`unknown content part ${JSON.stringify(value)}`);
}
