// Reads the stage results and the vitest / Playwright JSON reports written by scripts/test.sh and prints
// one plain `N passed, N failed` line. Each non-test stage (typecheck, lint, build) counts as one check;
// a test runner that crashed without a report counts as one failure so it can never pass silently.
import { existsSync, readFileSync } from 'node:fs';

const stages = existsSync('.tmp/stages.txt')
  ? readFileSync('.tmp/stages.txt', 'utf8').trim().split('\n').filter(Boolean)
  : [];
let passed = 0;
let failed = 0;
const notes = [];

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

for (const line of stages) {
  const [name, result] = line.split(' ');
  if (name === 'unit+integration') {
    const report = readJson('.tmp/vitest.json');
    if (!report) {
      failed += 1;
      notes.push('vitest wrote no report');
      continue;
    }
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
    if (result !== 'ok' && report.numFailedTests === 0 && !report.numFailedTestSuites) failed += 1;
    notes.push(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  } else if (name === 'browser') {
    const report = readJson('.tmp/playwright.json');
    if (!report) {
      failed += 1;
      notes.push('playwright wrote no report');
      continue;
    }
    const { expected = 0, unexpected = 0, flaky = 0 } = report.stats ?? {};
    passed += expected + flaky;
    failed += unexpected;
    if (result !== 'ok' && unexpected === 0) failed += 1;
    notes.push(`playwright: ${expected + flaky} passed, ${unexpected} failed`);
  } else if (result === 'ok') {
    passed += 1;
  } else {
    failed += 1;
    notes.push(`${name} failed`);
  }
}

console.log('');
console.log(`quire test stages: ${stages.join(', ')}`);
if (notes.length) console.log(notes.join('; '));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || stages.length === 0 ? 1 : 0);
