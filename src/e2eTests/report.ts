import { relativeFile } from '../config/index.js';
import type { CaseResult } from './runner.js';
import type { Where } from './testCase.js';

/** The lines a finished test case prints: its verdict, and why when it failed. */
export function resultLines(result: CaseResult, base: string): string[] {
  const { testCase } = result;
  const verdict = result.status === 'passed' ? 'PASS' : 'FAIL';
  const lines = [
    `${verdict}  ${testCase.name}  (${location(testCase.where, base)}, ${result.seconds.toFixed(2)} s)`,
  ];
  if (result.failure) {
    lines.push(
      `      at ${location(result.failure.where, base)}  ${result.failure.step}`,
      `      expected: ${result.failure.expected}`,
      `      actual:   ${result.failure.actual}`,
    );
  }
  for (const item of result.notChecked) {
    lines.push(`      not checked: ${location(item.where, base)}  ${item.reason}`);
  }
  return lines;
}

/** The closing lines: counts of passed and failed test cases, and of assertions not checked. */
export function summaryLines(results: readonly CaseResult[], total: number): string[] {
  const failed = results.filter((r) => r.status === 'failed').length;
  const passed = results.length - failed;
  const notRun = total - results.length;
  const notChecked = results.reduce((n, r) => n + r.notChecked.length, 0);
  return [
    `${passed} passed, ${failed} failed`,
    ...(notRun > 0 ? [`${notRun} not run after the first failure`] : []),
    ...(notChecked > 0
      ? [`${notChecked} assertion(s) not checked: they need a real model, and none was used`]
      : []),
  ];
}

export function location(where: Where, base: string): string {
  return `${relativeFile(where.file, base)}:${where.line}:${where.col}`;
}
