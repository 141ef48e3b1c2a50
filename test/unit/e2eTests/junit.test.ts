import { describe, expect, it } from 'vitest';
import { type CaseResult, junitXml } from '../../../src/e2eTests/index.js';

const where = (line: number) => ({ file: '/p/tests/a.yml', line, col: 5 });

const RESULTS: CaseResult[] = [
  {
    testCase: { name: 'sends <money> & "more"', where: where(2), steps: [], fixtures: [] },
    status: 'passed',
    notChecked: [
      { assertion: 'generative_response_is_relevant', where: where(9), reason: 'needs a model' },
    ],
    seconds: 0.25,
  },
  {
    testCase: { name: 'cancels', where: where(12), steps: [], fixtures: [] },
    status: 'failed',
    failure: {
      step: 'bot: "Bye\u0007"',
      where: where(15),
      expected: 'bot says "Bye"',
      actual: 'bot said nothing',
    },
    notChecked: [],
    seconds: 0.5,
  },
];

describe('JUnit XML', () => {
  it('holds a test suite per file and a test case per test case, escaped', () => {
    expect(
      junitXml(RESULTS, '/p', new Date('2026-01-02T03:04:05Z')),
    ).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="switchboard test" tests="2" failures="1" errors="0" skipped="0" time="0.750">
  <testsuite name="tests/a.yml" tests="2" failures="1" errors="0" skipped="0" time="0.750" timestamp="2026-01-02T03:04:05.000Z">
    <testcase name="sends &lt;money&gt; &amp; &quot;more&quot;" classname="tests/a.yml" file="tests/a.yml" line="2" time="0.250">
      <properties>
        <property name="not_checked" value="tests/a.yml:9:5 needs a model"/>
      </properties>
      <system-out>not checked: tests/a.yml:9:5 needs a model</system-out>
    </testcase>
    <testcase name="cancels" classname="tests/a.yml" file="tests/a.yml" line="12" time="0.500">
      <failure message="bot: &quot;Bye&quot;: expected bot says &quot;Bye&quot;; actual bot said nothing" type="AssertionError">at tests/a.yml:15:5
bot: "Bye"
expected: bot says "Bye"
actual:   bot said nothing</failure>
    </testcase>
  </testsuite>
</testsuites>
`);
  });
});
