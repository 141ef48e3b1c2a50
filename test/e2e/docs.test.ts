import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoPeersOnFreePorts, REPO_ROOT } from '../helpers/localProcess.js';
import { tempDir } from '../helpers/tempDirs.js';

/**
 * The documentation cannot drift: its links lead somewhere, the README's map lists every file
 * under docs/, its TypeScript compiles, and the commands it marks as runnable succeed.
 *
 * Markers, as HTML comments on the line before a fence:
 * - `<!-- snippet: not compiled -->` leaves a ```ts block out of the compile check;
 * - `<!-- doc-test: run -->` runs a ```sh block, one `npx switchboard …` command a line, each
 *   in the repository's root;
 * - `<!-- doc-test: run in a new folder -->` runs a block's commands one after the other in an
 *   empty folder of their own (as a user who starts a project does).
 */

const run = promisify(execFile);

const NOT_COMPILED = '<!-- snippet: not compiled -->';
const RUN = '<!-- doc-test: run -->';
const RUN_IN_NEW_FOLDER = '<!-- doc-test: run in a new folder -->';

interface Fence {
  readonly lang: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly body: string;
  /** The closest non-blank line before the fence. */
  readonly marker: string;
}

interface Markdown {
  readonly file: string;
  readonly lines: readonly string[];
  readonly fences: readonly Fence[];
  /** GitHub's anchors of the file's headings. */
  readonly anchors: ReadonlySet<string>;
  /** Every link target outside code, with its line. */
  readonly links: readonly { readonly target: string; readonly line: number }[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const DOCS_DIR = path.join(REPO_ROOT, 'docs');
const DOCS_FILES = walk(DOCS_DIR).map((file) => path.relative(REPO_ROOT, file));
const MARKDOWN_FILES = ['README.md', ...DOCS_FILES.filter((file) => file.endsWith('.md'))];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

function parse(file: string): Markdown {
  const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const fences: Fence[] = [];
  const anchors = new Set<string>();
  const links: { target: string; line: number }[] = [];
  let open: { lang: string; line: number; marker: string; fence: string; body: string[] } | null =
    null;
  let lastText = '';
  lines.forEach((text, index) => {
    const line = index + 1;
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(text);
    if (open) {
      if (fence?.[1]?.startsWith(open.fence) && text.trim() === fence[1]) {
        fences.push({
          lang: open.lang,
          line: open.line,
          body: open.body.join('\n'),
          marker: open.marker,
        });
        open = null;
      } else {
        open.body.push(text);
      }
      return;
    }
    if (fence?.[1]) {
      open = { lang: fence[2] ?? '', line, marker: lastText.trim(), fence: fence[1], body: [] };
      return;
    }
    if (text.trim() !== '') lastText = text;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading?.[1] !== undefined) {
      const base = slug(heading[1]);
      let anchor = base;
      for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
      anchors.add(anchor);
    }
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (match[1]) links.push({ target: match[1], line });
    }
    const definition = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition?.[1]) links.push({ target: definition[1], line });
  });
  if (open) throw new Error(`${file}: a code fence opened and never closed`);
  return { file, lines, fences, anchors, links };
}

const DOCS = new Map(MARKDOWN_FILES.map((file) => [file, parse(file)]));

/** Where a doc links to, or why the link leads nowhere. */
function brokenLink(from: Markdown, target: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:/i.test(target)) return undefined;
  const hash = target.indexOf('#');
  const filePart = decodeURI(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file =
    filePart === '' ? from.file : path.normalize(path.join(path.dirname(from.file), filePart));
  if (file.startsWith('..') || !existsSync(path.join(REPO_ROOT, file))) {
    return `no such file: ${file}`;
  }
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  const doc = DOCS.get(file) ?? parse(file);
  return doc.anchors.has(anchor) ? undefined : `no heading #${anchor} in ${file}`;
}

describe('the documentation', () => {
  it('has only relative links that lead to an existing file and heading', () => {
    const broken = [...DOCS.values()].flatMap((doc) =>
      doc.links.flatMap(({ target, line }) => {
        const reason = brokenLink(doc, target);
        return reason ? [`${doc.file}:${line}: ${target}: ${reason}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("lists every page under docs/ in the README's map", () => {
    const readme = DOCS.get('README.md');
    if (!readme) throw new Error('README.md was not read');
    const start = readme.lines.indexOf('## Documentation');
    expect(start, 'README.md has a "## Documentation" section').toBeGreaterThanOrEqual(0);
    const end = readme.lines.findIndex((line, i) => i > start && line.startsWith('## '));
    const mapLines = new Set(
      Array.from(
        { length: (end < 0 ? readme.lines.length : end) - start },
        (_, i) => start + i + 1,
      ),
    );
    const mapped = new Set(
      readme.links
        .filter(({ line, target }) => mapLines.has(line) && !target.includes('#'))
        .map(({ target }) => path.normalize(target)),
    );
    // Pages, that is: images are shown by the pages that link them.
    const pages = DOCS_FILES.filter((file) => file.endsWith('.md'));
    expect(pages.filter((file) => !mapped.has(file))).toEqual([]);
  });

  it('starts every file under docs/ with a title and a one-line summary', () => {
    const bad = [...DOCS.values()]
      .filter((doc) => doc.file !== 'README.md')
      .filter(
        (doc) =>
          !/^# \S/.test(doc.lines[0] ?? '') ||
          doc.lines[1] !== '' ||
          !/^[^#\s<|`-]/.test(doc.lines[2] ?? '') ||
          doc.lines[3] !== '',
      )
      .map((doc) => doc.file);
    expect(bad).toEqual([]);
  });
});

const SNIPPETS = [...DOCS.values()].flatMap((doc) =>
  doc.fences
    .filter((fence) => ['ts', 'typescript'].includes(fence.lang) && fence.marker !== NOT_COMPILED)
    .map((fence) => ({ doc: doc.file, ...fence })),
);

describe('the TypeScript of the documentation', () => {
  it('compiles with the repository settings, switchboard/sdk resolving to its source', async () => {
    expect(SNIPPETS.some((snippet) => snippet.body.includes("from 'switchboard/sdk'"))).toBe(true);
    // Inside the repository, so that `switchboard/sdk` resolves as the package's own export.
    const dir = await mkdtemp(path.join(REPO_ROOT, 'test', '.tmp-docs-snippets-'));
    try {
      const files = new Map<string, (typeof SNIPPETS)[number]>();
      for (const snippet of SNIPPETS) {
        const name = `${snippet.doc.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
        files.set(name, snippet);
        await writeFile(path.join(dir, name), `${snippet.body}\n`);
      }
      await writeFile(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: '../../tsconfig.json', include: ['*.ts'] }),
      );
      const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
      const result = await run(process.execPath, [tsc, '-p', dir, '--listFiles'], {
        cwd: REPO_ROOT,
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({
          code: error.code ?? 1,
          stdout: error.stdout ?? '',
        }),
      );
      // Each error located in its doc: the snippet's line N is the fence's line + N.
      const errors = result.stdout
        .split('\n')
        .filter((line) => line.includes(': error TS'))
        .map((line) =>
          line.replace(/^.*?([^/]+\.ts)\((\d+),(\d+)\)/, (whole, name: string, row: string) => {
            const snippet = files.get(name);
            return snippet ? `${snippet.doc}:${snippet.line + Number(row)}` : whole;
          }),
        );
      expect(errors).toEqual([]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(path.join(REPO_ROOT, 'src/sdk/index.ts'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const COMMANDS = [...DOCS.values()].flatMap((doc) =>
  doc.fences
    .filter((fence) => fence.marker === RUN)
    .flatMap((fence) =>
      fence.body
        .split('\n')
        .map((command, i) => ({
          doc: doc.file,
          line: fence.line + i + 1,
          lang: fence.lang,
          command,
        }))
        .filter(({ command }) => command.trim() !== '' && !command.trim().startsWith('#')),
    ),
);

/**
 * A documented command as the test runs it: `switchboard` is the repository's binary, the demo
 * peers listen on free ports (so that `npm start` beside the tests does not collide with them),
 * and `switchboard test` writes its JUnit XML to a temporary folder.
 */
async function commandLine(command: string): Promise<string[]> {
  if (/["'$`|&;<>()\\]/.test(command)) throw new Error(`not a plain command: ${command}`);
  const words = command.trim().split(/\s+/);
  const args = words[0] === 'npx' ? words.slice(1) : words;
  if (args[0] !== 'switchboard') throw new Error(`not a switchboard command: ${command}`);
  const rest: string[] = [];
  for (const word of args.slice(1)) {
    rest.push(...(word === '--demo-peers' ? await demoPeersOnFreePorts() : [word]));
  }
  if (rest[0] === 'test' && !rest.includes('--help') && !rest.includes('--junit-xml')) {
    rest.push('--junit-xml', path.join(await tempDir('switchboard-docs-'), 'results.xml'));
  }
  return [path.join(REPO_ROOT, 'bin/switchboard.js'), ...rest];
}

/** Runs a documented command in `cwd`; resolves with its exit code and, on failure, its output. */
async function runDocumented(command: string, cwd: string) {
  return run(process.execPath, await commandLine(command), {
    cwd,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    timeout: 50_000,
  }).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

/** The blocks whose commands run in a new folder, in order. */
const BLOCKS_IN_NEW_FOLDER = [...DOCS.values()].flatMap((doc) =>
  doc.fences
    .filter((fence) => fence.marker === RUN_IN_NEW_FOLDER)
    .map((fence) => ({
      where: `${doc.file}:${fence.line}`,
      commands: fence.body.split('\n').filter((c) => c.trim() !== '' && !c.trim().startsWith('#')),
    })),
);

describe('the commands the documentation marks as runnable', () => {
  it('are there', () => {
    expect(COMMANDS.length).toBeGreaterThan(0);
    expect(COMMANDS.filter(({ lang }) => !['sh', 'bash'].includes(lang))).toEqual([]);
    expect(BLOCKS_IN_NEW_FOLDER.length).toBeGreaterThan(0);
  });

  it.each(BLOCKS_IN_NEW_FOLDER.map((b) => [b.where, b] as const))(
    '%s runs in a new folder, each command exiting with 0',
    async (_name, { commands }) => {
      const folder = await tempDir('switchboard-docs-folder-');
      for (const command of commands) {
        const result = await runDocumented(command, folder);
        expect(result, `${command}\n${result.output}`).toEqual({ code: 0, output: '' });
      }
    },
  );

  it.each(COMMANDS.map((c) => [`${c.doc}:${c.line}: ${c.command}`, c] as const))(
    '%s exits with 0',
    async (_name, { command }) => {
      const result = await runDocumented(command, REPO_ROOT);
      expect(result, result.output).toEqual({ code: 0, output: '' });
    },
  );
});
