/**
 * Values as Python writes them, for templates that Rasa renders with Jinja2 from Python values:
 * `str()` is what `{{ value }}` prints, `repr()` what appears inside a printed list or dict, and
 * `json.dumps()` what Rasa's `to_json_escaped_string` filter gives.
 */

/** Python's `str(value)`: `None`, `True`, `['a', 'b']`; a string is itself. */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonRepr(value);
}

/** Python's `repr(value)`: strings quoted as Python quotes them, lists and dicts with `, `. */
export function pythonRepr(value: unknown): string {
  if (value instanceof PythonFloat) return pythonFloat(value.value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isPlainObject(value)) {
    const items = Object.entries(value).map(([k, v]) => `${quote(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

/**
 * Python's `str()` of a float: `50.0` where JavaScript writes `50`, and an exponent from 1e16 up
 * and below 1e-4 (`1e+16`, `1e-05`), where JavaScript's starts at 1e21 and 1e-7.
 */
function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return pythonNumber(value);
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const power = Number(exponent);
  if (power < -4 || power >= 16) {
    return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const text = Object.is(value, -0) ? '-0' : String(value);
  return text.includes('.') ? text : `${text}.0`;
}

/**
 * A number Python holds as a float: it prints as Python prints floats (`2000.0`) and computes and
 * compares as its number, in templates too.
 */
export class PythonFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toString(): string {
    return pythonFloat(this.value);
  }
  toJSON(): number {
    return this.value;
  }
}

/**
 * A slot's value as Rasa holds it: Rasa coerces what fills a float slot to a Python float, so a
 * float slot's number is a `PythonFloat`; other values are themselves.
 */
export function pythonSlotValue(value: unknown, slotType: string | undefined): unknown {
  return slotType === 'float' && typeof value === 'number' ? new PythonFloat(value) : value;
}

/** Python's `str()` of a slot's value, as Rasa prints it into prompts and responses (`2000.0`). */
export function pythonSlotStr(value: unknown, slotType: string | undefined): string {
  return pythonStr(pythonSlotValue(value ?? null, slotType));
}

/**
 * Python's `json.dumps(value)`: `null` for None, `", "` and `": "` between items; characters
 * beyond ASCII as they are (`ensure_ascii=False`, as Rasa's filter) unless `asciiOnly`.
 */
export function pythonJsonDumps(
  value: unknown,
  options: { sortKeys?: boolean; asciiOnly?: boolean } = {},
): string {
  const string = (text: string): string =>
    options.asciiOnly
      ? JSON.stringify(text).replace(/[\u0080-\uffff]/g, (ch) => `\\u${hex(ch.charCodeAt(0), 4)}`)
      : JSON.stringify(text);
  const dump = (v: unknown): string => {
    if (v instanceof PythonFloat)
      return Number.isFinite(v.value) ? pythonFloat(v.value) : dump(v.value);
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return JSON.stringify(v);
    }
    if (typeof v === 'string') return string(v);
    if (typeof v === 'boolean') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(dump).join(', ')}]`;
    if (isPlainObject(v)) {
      const entries = Object.entries(v);
      if (options.sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, item]) => `${string(k)}: ${dump(item)}`).join(', ')}}`;
    }
    return string(String(v));
  };
  return dump(value);
}

function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  // Python writes large and small floats with a signed two-digit exponent: 1e+21, 1e-07.
  return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** A string literal as Python's repr writes it: single quotes unless only double ones avoid escapes. */
function quote(text: string): string {
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === q) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${hex(code, 2)}`;
    else if (code === 0x2028 || code === 0x2029) out += `\\u${hex(code, 4)}`;
    else out += ch;
  }
  return out + q;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
