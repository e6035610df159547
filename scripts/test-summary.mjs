// Print one closing line for the whole suite: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0,
  missing = [];
const [vitestFile, playwrightFile] = process.argv.slice(2);
if (existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
} else missing.push('vitest');
if (existsSync(playwrightFile)) {
  const s = JSON.parse(readFileSync(playwrightFile, 'utf8')).stats;
  passed += s.expected;
  failed += s.unexpected + (s.flaky ?? 0) * 0;
  skipped += s.skipped;
} else missing.push('playwright');
if (missing.length) console.log(`[tclab] no results from: ${missing.join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length ? 1 : 0);
