import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Diagnostic, didYouMean, YamlSource } from '../config/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { type ParsedTestFile, parseTestFile } from './parseFile.js';
import {
  type ActionStub,
  definedNames,
  definitionFor,
  type TestCase,
  type TestSuite,
} from './testCase.js';

/** The test files a path names: the file itself, or every YAML file under a folder with `test_cases`. */
export interface SuiteLoad {
  readonly suite: TestSuite;
  readonly errors: readonly Diagnostic[];
  /** The folder the tests are in: where the commands file is looked for. */
  readonly folder: string;
}

/** A test path that does not exist, or holds no test file. Code `TEST_PATH_INVALID`. */
export class TestPathError extends SwitchboardError {
  override readonly name = 'TestPathError';
  override readonly code = 'TEST_PATH_INVALID';
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
  const fixtures = new Map(files.map(({ file, parsed }) => [file, parsed.fixtures] as const));
  const metadata = new Map(files.map(({ file, parsed }) => [file, parsed.metadata] as const));
  const stubs = new Map<string, ActionStub>();
  const cases: TestCase[] = [];
  for (const { parsed } of files) {
    for (const [name, stub] of parsed.stubs) stubs.set(name, stub);
    // Rasa runs test cases of the same name (the demo projects have some), and so do we.
    cases.push(...parsed.cases);
  }
  const suite = { files: files.map((f) => f.file), cases, fixtures, metadata, stubs };
  for (const testCase of cases) checkReferences(suite, testCase, errors);
  return suite;
}

function checkReferences(suite: TestSuite, testCase: TestCase, errors: Diagnostic[]): void {
  for (const name of testCase.fixtures) {
    if (!definitionFor(suite.fixtures, testCase, name)) {
      errors.push({
        ...testCase.where,
        message: `test case "${testCase.name}" uses fixture "${name}", which no test file defines${didYouMean(name, definedNames(suite.fixtures))}`,
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
    if (!definitionFor(suite.metadata, testCase, name)) {
      errors.push({
        ...where,
        message: `metadata "${name}" is not defined in any test file${didYouMean(name, definedNames(suite.metadata))}`,
      });
    }
  }
}
