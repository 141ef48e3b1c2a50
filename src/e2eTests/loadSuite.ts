import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Diagnostic, didYouMean, YamlSource } from '../config/index.js';
import { type ParsedTestFile, parseTestFile } from './parseFile.js';
import type { ActionStub, TestCase, TestSuite, Where } from './testCase.js';

/** The test files a path names: the file itself, or every YAML file under a folder with `test_cases`. */
export interface SuiteLoad {
  readonly suite: TestSuite;
  readonly errors: readonly Diagnostic[];
  /** The folder the tests are in: where the commands file is looked for. */
  readonly folder: string;
}

/** A test path that does not exist, or holds no test file. */
export class TestPathError extends Error {
  override readonly name = 'TestPathError';
}

/** Reads the e2e tests at `target` (a file or a folder) and checks what they refer to. */
export async function loadSuite(target: string): Promise<SuiteLoad> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new TestPathError(`${target}: no such file or folder`);
  const folder = info.isDirectory() ? target : path.dirname(target);
  const candidates = info.isDirectory() ? await yamlFilesUnder(target) : [target];
  const errors: Diagnostic[] = [];
  const files: { file: string; parsed: ParsedTestFile }[] = [];
  for (const file of candidates) {
    const loaded = YamlSource.parse(file, await readFile(file, 'utf8'));
    if (!loaded.source) {
      errors.push(...loaded.errors);
      continue;
    }
    const data = loaded.source.data;
    const isTestFile = data !== null && typeof data === 'object' && 'test_cases' in data;
    // In a folder, other YAML files (the commands file, Rasa's conftest.yml) are not tests.
    if (info.isDirectory() && !isTestFile) continue;
    files.push({ file, parsed: parseTestFile(loaded.source, errors) });
  }
  if (files.length === 0 && errors.length === 0) {
    throw new TestPathError(`${target}: no e2e test file (a YAML file with test_cases) found`);
  }
  return { suite: mergeFiles(files, errors), errors, folder };
}

async function yamlFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function mergeFiles(
  files: readonly { file: string; parsed: ParsedTestFile }[],
  errors: Diagnostic[],
): TestSuite {
  const fixtures = new Map<string, Record<string, unknown>>();
  const fixtureWhere = new Map<string, Where>();
  const metadata = new Map<string, Record<string, unknown>>();
  const stubs = new Map<string, ActionStub>();
  const cases: TestCase[] = [];
  const seen = new Map<string, TestCase>();
  for (const { parsed } of files) {
    for (const [name, fixture] of parsed.fixtures) {
      if (fixtures.has(name)) {
        errors.push({ ...fixture.where, message: `fixture "${name}" is defined twice` });
      }
      fixtures.set(name, fixture.slots);
      fixtureWhere.set(name, fixture.where);
    }
    for (const [name, entry] of parsed.metadata) {
      if (metadata.has(name)) {
        errors.push({ ...entry.where, message: `metadata "${name}" is defined twice` });
      }
      metadata.set(name, entry.values);
    }
  }
  for (const { parsed } of files) {
    for (const [name, stub] of parsed.stubs) stubs.set(name, stub);
    for (const testCase of parsed.cases) {
      const twin = seen.get(testCase.name);
      if (twin) {
        errors.push({
          ...testCase.where,
          message: `test case "${testCase.name}" is defined twice (also at ${path.basename(twin.where.file)}:${twin.where.line})`,
        });
        continue;
      }
      seen.set(testCase.name, testCase);
      checkReferences(testCase, fixtures, metadata, errors);
      cases.push(testCase);
    }
  }
  return { files: files.map((f) => f.file), cases, fixtures, fixtureWhere, metadata, stubs };
}

function checkReferences(
  testCase: TestCase,
  fixtures: ReadonlyMap<string, unknown>,
  metadata: ReadonlyMap<string, unknown>,
  errors: Diagnostic[],
): void {
  for (const name of testCase.fixtures) {
    if (!fixtures.has(name)) {
      errors.push({
        ...testCase.where,
        message: `test case "${testCase.name}" uses fixture "${name}", which no test file defines${didYouMean(name, [...fixtures.keys()])}`,
      });
    }
  }
  const names = [
    ...(testCase.metadata !== undefined
      ? [{ name: testCase.metadata, where: testCase.where }]
      : []),
    ...testCase.steps.flatMap((s) =>
      s.kind === 'user' && s.metadata !== undefined ? [{ name: s.metadata, where: s.where }] : [],
    ),
  ];
  for (const { name, where } of names) {
    if (!metadata.has(name)) {
      errors.push({
        ...where,
        message: `metadata "${name}" is not defined in any test file${didYouMean(name, [...metadata.keys()])}`,
      });
    }
  }
}
