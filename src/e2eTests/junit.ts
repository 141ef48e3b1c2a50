import { relativeFile } from '../config/index.js';
import { location } from './report.js';
import type { CaseResult } from './runner.js';

/**
 * The results as JUnit XML: one `testsuite` per test file, one `testcase` per test case, a
 * `failure` with the step, expectation and outcome for a failed one. Assertions that were not
 * checked are listed in the test case's `system-out` and as properties, never counted as passed.
 */
export function junitXml(results: readonly CaseResult[], base: string, timestamp: Date): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const result of results) {
    const file = relativeFile(result.testCase.where.file, base);
    byFile.set(file, [...(byFile.get(file) ?? []), result]);
  }
  const failures = results.filter((r) => r.status === 'failed').length;
  const seconds = sum(results);
  const suites = [...byFile].map(([file, cases]) => {
    const failed = cases.filter((r) => r.status === 'failed').length;
    return [
      `  <testsuite name="${attr(file)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0" time="${sum(cases).toFixed(3)}" timestamp="${timestamp.toISOString()}">`,
      ...cases.map((r) => testCase(r, file, base)),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="switchboard test" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${seconds.toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(result: CaseResult, file: string, base: string): string {
  const { testCase: tc } = result;
  const open = `    <testcase name="${attr(tc.name)}" classname="${attr(file)}" file="${attr(file)}" line="${tc.where.line}" time="${result.seconds.toFixed(3)}"`;
  const body: string[] = [];
  if (result.notChecked.length > 0) {
    body.push(
      '      <properties>',
      ...result.notChecked.map(
        (n) =>
          `        <property name="not_checked" value="${attr(`${location(n.where, base)} ${n.reason}`)}"/>`,
      ),
      '      </properties>',
    );
  }
  if (result.failure) {
    const f = result.failure;
    const message = `${f.step}: expected ${f.expected}; actual ${f.actual}`;
    body.push(
      `      <failure message="${attr(message)}" type="AssertionError">${text(
        `at ${location(f.where, base)}\n${f.step}\nexpected: ${f.expected}\nactual:   ${f.actual}`,
      )}</failure>`,
    );
  }
  if (result.notChecked.length > 0) {
    const lines = result.notChecked.map(
      (n) => `not checked: ${location(n.where, base)} ${n.reason}`,
    );
    body.push(`      <system-out>${text(lines.join('\n'))}</system-out>`);
  }
  return body.length === 0 ? `${open}/>` : [`${open}>`, ...body, '    </testcase>'].join('\n');
}

function sum(results: readonly CaseResult[]): number {
  return results.reduce((s, r) => s + r.seconds, 0);
}

/** Escapes an attribute value; characters XML 1.0 cannot hold are dropped. */
function attr(value: string): string {
  return text(value).replaceAll('"', '&quot;').replaceAll('\n', '&#10;');
}

function text(value: string): string {
  return [...value]
    .filter(isXmlChar)
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Tab, newline, carriage return and the printable ranges: what XML 1.0 can hold. */
function isXmlChar(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}
