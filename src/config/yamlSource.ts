import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { Diagnostic } from './diagnostics.js';
import type { KeyPath } from './keyPath.js';

/** Where in a file a diagnostic points: the key of an entry, or its value. */
export type Anchor = 'key' | 'value';

/** A parsed YAML file that can locate any key path it contains. */
export class YamlSource {
  private constructor(
    readonly file: string,
    private readonly contents: Node | null,
    private readonly lineCounter: LineCounter,
    private readonly resolveAlias: (node: Node) => Node | undefined,
    readonly data: unknown,
  ) {}

  /** Parses `text`; YAML syntax errors come back as diagnostics and no source. */
  static parse(
    file: string,
    text: string,
  ): { source: YamlSource; errors: [] } | { source: undefined; errors: Diagnostic[] } {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      return {
        source: undefined,
        errors: doc.errors.map((e) => {
          const pos = lineCounter.linePos(e.pos[0]);
          return {
            file,
            line: pos.line,
            col: pos.col,
            message: `YAML syntax: ${firstLine(e.message)}`,
          };
        }),
      };
    }
    const data: unknown = doc.toJS({ maxAliasCount: 1000 });
    const resolve = (node: Node): Node | undefined =>
      isAlias(node) ? (node.resolve(doc) as Node | undefined) : node;
    return {
      source: new YamlSource(file, doc.contents as Node | null, lineCounter, resolve, data ?? null),
      errors: [],
    };
  }

  /**
   * The 1-based position of `path`: its key (`anchor: 'key'`) or its value. When the path does not
   * exist, the closest existing ancestor's position is returned (the mapping that lacks the key).
   */
  position(path: KeyPath, anchor: Anchor = 'value'): { line: number; col: number } {
    let node: Node | null | undefined = this.contents;
    let best: number | undefined = node?.range?.[0];
    for (let i = 0; i < path.length && node; i++) {
      const segment = path[i];
      const last = i === path.length - 1;
      node = this.resolveAlias(node);
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isScalar(p.key) && String(p.key.value) === String(segment),
        );
        if (!pair) break;
        const key = pair.key as Node;
        if (last && anchor === 'key') return this.at(key.range?.[0] ?? best);
        const value = pair.value as Node | null;
        best = value?.range?.[0] ?? key.range?.[0] ?? best;
        node = value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (!item) break;
        best = item.range?.[0] ?? best;
        node = item;
      } else {
        break;
      }
    }
    return this.at(best);
  }

  /**
   * The position of character `offset` inside the string value at `path`, for values written on
   * one line (plain or quoted); otherwise the value's own position.
   */
  positionInValue(path: KeyPath, offset: number): { line: number; col: number } {
    const start = this.position(path);
    const node = this.nodeAt(path);
    if (!isScalar(node) || typeof node.value !== 'string' || node.value.includes('\n'))
      return start;
    const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
    if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') return start;
    return { line: start.line, col: start.col + offset + (quoted ? 1 : 0) };
  }

  private nodeAt(path: KeyPath): Node | null | undefined {
    let node: Node | null | undefined = this.contents;
    for (const segment of path) {
      if (!node) return undefined;
      node = this.resolveAlias(node);
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isScalar(p.key) && String(p.key.value) === String(segment),
        );
        node = pair?.value as Node | null | undefined;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment] as Node | undefined;
      } else {
        return undefined;
      }
    }
    return node && this.resolveAlias(node);
  }

  /** A diagnostic at `path`. */
  diagnostic(path: KeyPath, message: string, anchor: Anchor = 'value'): Diagnostic {
    return { file: this.file, ...this.position(path, anchor), message };
  }

  private at(offset: number | undefined): { line: number; col: number } {
    if (offset === undefined) return { line: 1, col: 1 };
    const { line, col } = this.lineCounter.linePos(offset);
    return { line, col };
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
