import { describe, expect, it } from 'vitest';
import type { McpCallResult } from '../../../src/mcp/client.js';
import { toolResultText } from '../../../src/mcp/toolResultText.js';

/** A successful result holding `content`, and `structuredContent` when given. */
function result(content: unknown[], structuredContent?: unknown): McpCallResult {
  return structuredContent === undefined
    ? { isError: false, content }
    : { isError: false, content, structuredContent };
}

/** `hello` in base64: five bytes once decoded, eight characters as written. */
const HELLO_BASE64 = 'aGVsbG8=';

describe('toolResultText', () => {
  it('joins the text parts, one a line', () => {
    expect(
      toolResultText(
        result([
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ]),
      ),
    ).toBe('first\nsecond');
  });

  it('names images and audio by kind, media type and decoded size instead of their data', () => {
    expect(
      toolResultText(
        result([
          { type: 'image', mimeType: 'image/png', data: HELLO_BASE64 },
          { type: 'audio', mimeType: 'audio/wav', data: HELLO_BASE64 },
        ]),
      ),
    ).toBe('[image image/png, 5 bytes]\n[audio audio/wav, 5 bytes]');
  });

  it('leaves the media type blank when an image does not name one', () => {
    expect(toolResultText(result([{ type: 'image', data: HELLO_BASE64 }]))).toBe(
      '[image , 5 bytes]',
    );
  });

  it('shows a resource link by its URI with its name and description', () => {
    expect(
      toolResultText(
        result([
          {
            type: 'resource_link',
            uri: 'file:///report.pdf',
            name: 'report',
            description: 'the yearly report',
          },
        ]),
      ),
    ).toBe('[resource file:///report.pdf (report: the yearly report)]');
  });

  it('shows a resource link with only a name, or with neither name nor description', () => {
    expect(
      toolResultText(
        result([
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
          { type: 'resource_link', uri: 'file:///b.txt', description: 'the b file' },
          { type: 'resource_link', uri: 'file:///c.txt' },
        ]),
      ),
    ).toBe(
      '[resource file:///a.txt (a)]\n[resource file:///b.txt (the b file)]\n[resource file:///c.txt]',
    );
  });

  it('shows an embedded text resource under its URI', () => {
    expect(
      toolResultText(
        result([{ type: 'resource', resource: { uri: 'file:///notes.md', text: '# Notes' } }]),
      ),
    ).toBe('[resource file:///notes.md]\n# Notes');
  });

  it('names an embedded binary resource by URI, media type and decoded size', () => {
    expect(
      toolResultText(
        result([
          {
            type: 'resource',
            resource: {
              uri: 'file:///hello.bin',
              mimeType: 'application/octet-stream',
              blob: HELLO_BASE64,
            },
          },
        ]),
      ),
    ).toBe('[resource file:///hello.bin, application/octet-stream, 5 bytes]');
  });

  it('calls an embedded resource without text or media type binary, of no bytes when it has no blob', () => {
    expect(
      toolResultText(
        result([
          { type: 'resource', resource: { uri: 'file:///empty' } },
          { type: 'resource', resource: { uri: 'file:///hello', blob: HELLO_BASE64 } },
        ]),
      ),
    ).toBe('[resource file:///empty, binary, 0 bytes]\n[resource file:///hello, binary, 5 bytes]');
  });

  it('names the kind of a part it cannot read instead of failing', () => {
    expect(
      toolResultText(
        result([
          { type: 'video', data: HELLO_BASE64 },
          { type: 'text' },
          { type: 'resource', resource: { text: 'no uri' } },
          { text: 'no type' },
          'a bare string',
          null,
          42,
        ]),
      ),
    ).toBe(
      [
        '[content of an unsupported kind: video]',
        '[content of an unsupported kind: text]',
        '[content of an unsupported kind: resource]',
        '[content of an unsupported kind: object]',
        '[content of an unsupported kind: string]',
        '[content of an unsupported kind: object]',
        '[content of an unsupported kind: number]',
      ].join('\n'),
    );
  });

  it('adds the structured content as JSON after the parts', () => {
    expect(
      toolResultText(result([{ type: 'text', text: 'The weather:' }], { temperature: 21 })),
    ).toBe('The weather:\n{"temperature":21}');
  });

  it('gives the structured content alone as JSON when there are no parts', () => {
    expect(toolResultText(result([], { temperature: 21 }))).toBe('{"temperature":21}');
  });

  it('does not repeat structured content that a text part already carries, however it is spaced', () => {
    expect(
      toolResultText(
        result(
          [
            { type: 'text', text: 'The weather:' },
            { type: 'text', text: '{ "temperature": 21 }' },
          ],
          { temperature: 21 },
        ),
      ),
    ).toBe('The weather:\n{ "temperature": 21 }');
  });

  it('adds the structured content when the text parts carry other JSON', () => {
    expect(
      toolResultText(result([{ type: 'text', text: '{"temperature":22}' }], { temperature: 21 })),
    ).toBe('{"temperature":22}\n{"temperature":21}');
  });

  it('keeps a result exactly as long as the limit whole', () => {
    expect(toolResultText(result([{ type: 'text', text: 'abcde' }]), 5)).toBe('abcde');
  });

  it('cuts a longer result at the limit and says how much it left out', () => {
    expect(toolResultText(result([{ type: 'text', text: 'abcdef' }]), 5)).toBe(
      'abcde\n[truncated: the first 5 of 6 characters]',
    );
  });
});
