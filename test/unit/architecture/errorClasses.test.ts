import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './sourceFiles.js';

interface ErrorClass {
  readonly file: string;
  readonly name: string;
  readonly base: string;
  readonly code: string | undefined;
  readonly doc: string;
}

const CLASS =
  /(\/\*\*(?:(?!\*\/)[\s\S])*?\*\/\n)?(?:export )?(?:abstract )?class (\w+) extends (\w+) \{/g;

/** Every class of src/ that ends in `Error`, with its base, its code and its JSDoc. */
function errorClasses(): ErrorClass[] {
  return sourceFiles().flatMap((file) => {
    const text = readFileSync(path.join(SRC, file.name), 'utf8');
    return [...text.matchAll(CLASS)]
      .filter((match) => match[2]?.endsWith('Error'))
      .map((match) => {
        const body = text.slice(match.index + match[0].length);
        const code = /override readonly code(?:: string)? = '([A-Z0-9_]+)'/.exec(
          body.slice(0, body.search(/\n}\n/)),
        )?.[1];
        return {
          file: file.name,
          name: match[2] ?? '',
          base: match[3] ?? '',
          code,
          doc: match[1] ?? '',
        };
      });
  });
}

const classes = errorClasses();
const ROOTS = ['SwitchboardError', 'WireError'];

describe('the error classes of src', () => {
  it('are found', () => {
    expect(classes.length).toBeGreaterThan(40);
  });

  it('all extend SwitchboardError, directly or through a family base of ours', () => {
    const ours = new Set([...ROOTS, ...classes.map((c) => c.name)]);
    const descendants = classes.filter((c) => c.name !== 'SwitchboardError');
    expect(descendants.filter((c) => !ours.has(c.base)).map((c) => `${c.file}: ${c.name}`)).toEqual(
      [],
    );
  });

  it('each name a stable code of their own, documented in their JSDoc', () => {
    const concrete = classes.filter((c) => !ROOTS.includes(c.name));
    expect(concrete.filter((c) => c.code === undefined).map((c) => c.name)).toEqual([]);
    expect(
      concrete.filter((c) => !c.doc.includes(`Code \`${c.code}\``)).map((c) => c.name),
    ).toEqual([]);
    const codes = concrete.map((c) => c.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });
});
