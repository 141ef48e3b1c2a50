const QUOTES = new Set(['"', "'"]);

/** Removes one pair of matching single or double quotes around `text`, if present. */
export function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && first !== undefined && QUOTES.has(first) && text.endsWith(first)) {
    return text.slice(1, -1);
  }
  return text;
}

/**
 * Splits on commas outside quotes; `undefined` when a quote is never closed. A quote only opens
 * at the start of a part or right after `=`, so apostrophes inside bare words (`it's`) are text.
 */
export function splitOnCommas(text: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let open: string | undefined;
  for (const char of text) {
    if (open !== undefined) {
      current += char;
      if (char === open) open = undefined;
    } else if (char === ',') {
      parts.push(current);
      current = '';
    } else {
      const before = current.trim();
      if (QUOTES.has(char) && (before === '' || before.endsWith('='))) open = char;
      current += char;
    }
  }
  if (open !== undefined) return undefined;
  parts.push(current);
  return parts;
}

/** Parses JSON text, `undefined` when it is not valid JSON. The result still needs a schema. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
