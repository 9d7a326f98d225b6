// `npm test`: every test of the project, in one run of Node's test runner.
// Unit tests sit next to the code as *.test.ts; the worker's own tests are in native/test.
// Tests that need root, a loop device or a tool that is missing skip with a message saying so.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// First the type checks of every tsconfig (Node code, renderer, renderer tests, Electron glue):
// the code runs unbuilt, so nothing else would notice a type error.
const typecheck = ['tsconfig.json', 'tsconfig.web.json', 'tsconfig.renderer-tests.json', 'tsconfig.electron.json'].map((config) => {
  const tsc = spawnSync(process.execPath, [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', config], { stdio: 'inherit' });
  console.log(`typecheck ${config}: ${tsc.status === 0 ? 'ok' : 'FAILED'}`);
  return tsc.status ?? 1;
});

// Then lint (ESLint: type-aware rules, React hooks, the layering of eslint-rules/layers.js) and
// the formatter's check: each fails the run like a type error, after every test has run.
const lint = spawnSync(process.execPath, [fileURLToPath(new URL('../node_modules/eslint/bin/eslint.js', import.meta.url)), '.'], {
  stdio: 'inherit',
});
console.log(`lint: ${lint.status === 0 ? 'ok' : 'FAILED (npm run lint)'}`);
const format = spawnSync(
  process.execPath,
  [fileURLToPath(new URL('../node_modules/prettier/bin/prettier.cjs', import.meta.url)), '--check', '--log-level', 'warn', '.'],
  { stdio: 'inherit' },
);
console.log(`format: ${format.status === 0 ? 'ok' : 'FAILED (npm run format writes it)'}`);
const styleFailure = lint.status !== 0 ? (lint.status ?? 1) : format.status !== 0 ? (format.status ?? 1) : 0;

const patterns = ['electron/**/*.test.ts', 'native/test/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.test.ts', 'renderer/**/*.test.ts'];
const files = patterns.flatMap((p) => globSync(p, { exclude: (f) => f.includes('node_modules') })).sort();
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}
// Device-lab tests use loop devices and the blkio throttle; running files one at a time
// keeps their timings honest on a 2-core machine.
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
});
// The worker's own tests once more, against its AddressSanitizer + UBSan build: a use after
// free or a leak that the normal build survives fails here (a sanitizer report goes to stderr
// and turns the exit code non-zero, which every worker test checks).
const sanitizerBuild = spawnSync('make', ['-s', '-C', 'native', 'sanitize'], { encoding: 'utf8' });
const sanitized =
  sanitizerBuild.status === 0
    ? spawnSync(
        process.execPath,
        [
          '--test',
          '--test-concurrency=1',
          '--test-reporter=spec',
          'native/test/worker.test.ts',
          'native/test/workload.test.ts',
          'native/test/argv-fuzz.test.ts',
        ],
        {
          stdio: 'inherit',
          env: { ...process.env, DISKDELTA_WORKER: fileURLToPath(new URL('../native/build/diskdelta-worker-asan', import.meta.url)) },
        },
      )
    : (console.log(`worker under ASan + UBSan: skipped, the compiler cannot build it (make -C native sanitize):\n${sanitizerBuild.stderr}`),
      { status: 0 });
// Then the app end to end: Playwright in Debian's Chromium against `diskdelta serve` (e2e/).
// Both always run; the exit status is the node tests' failure, else Playwright's.
const e2e = spawnSync(
  process.execPath,
  [fileURLToPath(import.meta.resolve('@playwright/test/cli')), 'test', '-c', 'e2e/playwright.config.ts'],
  { stdio: 'inherit' },
);
const failedTypecheck = typecheck.find((status) => status !== 0);
const firstFailure = [result.status, sanitized.status, e2e.status].find((status) => status !== 0);
process.exit(firstFailure !== undefined ? (firstFailure ?? 1) : (failedTypecheck ?? styleFailure));
