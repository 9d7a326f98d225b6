// `npm test`: every test of the project (what .ci/run runs). `npm run test:fast`: the inner loop,
// the same checks without the labs (scripts/test-manifest.ts says which files those are), all at
// once. Unit tests sit next to the code as *.test.ts; the worker's own tests are in native/test.
// Tests that need root, a loop device or a tool that is missing skip with a message saying so.
//
//   node scripts/run-tests.ts [--fast] [--only ID,…] [--skip ID,…] [--without NEED,…] [--file-timeout S] [--list] [node --test flags…]
//
// An id is a test file's path without `.test.ts` (native/test/worker), or one of the steps
// `typecheck`, `lint`, `format`, `asan`, `playwright`. `--only` runs just what it names;
// `--skip` leaves out what it names; `--without loop,root` leaves out the files needing those.
// `--file-timeout S` (or DISKDELTA_TEST_FILE_TIMEOUT=S) gives every test file one time limit in
// seconds in place of test-manifest.ts's (past it the file's process group is killed and it fails).
// Anything else is handed to `node --test` (e.g. --test-name-pattern=…).
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isSharedDisk } from './disk-lock-watch.ts';
import { killRunningFiles, runTestFiles, specCounts } from './test-file-runner.ts';
import { isLab, LAB_NEEDS, NEEDS, selectTests, TEST_FILES, testId, timeLimitSeconds, type Need } from './test-manifest.ts';

const STEPS = ['typecheck', 'lint', 'format', 'asan', 'playwright'] as const;
type Step = (typeof STEPS)[number];

interface Options {
  fast: boolean;
  list: boolean;
  only: string[];
  skip: string[];
  without: Need[];
  /** One time limit in seconds for every test file (else test-manifest's timeLimitSeconds). */
  fileTimeout: number | undefined;
  nodeTestArgs: string[];
}

function parseArgs(argv: readonly string[]): Options {
  const envLimit = process.env.DISKDELTA_TEST_FILE_TIMEOUT;
  const o: Options = { fast: false, list: false, only: [], skip: [], without: [], fileTimeout: undefined, nodeTestArgs: [] };
  const limit = (from: string, value: string | undefined): number => {
    const n = Number(value);
    if (!value || !Number.isFinite(n) || n <= 0) throw new Error(`${from} needs a number of seconds above 0, e.g. ${from}=600`);
    return n;
  };
  if (envLimit !== undefined && envLimit !== '') o.fileTimeout = limit('DISKDELTA_TEST_FILE_TIMEOUT', envLimit);
  const csv = (flag: string, value: string | undefined): string[] => {
    if (!value) throw new Error(`${flag} needs a comma-separated list, e.g. ${flag} native/test/worker`);
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--fast') o.fast = true;
    else if (flag === '--list') o.list = true;
    else if (flag === '--only') o.only.push(...csv('--only', value()));
    else if (flag === '--skip') o.skip.push(...csv('--skip', value()));
    else if (flag === '--without') o.without.push(...(csv('--without', value()) as Need[]));
    else if (flag === '--file-timeout') o.fileTimeout = limit('--file-timeout', value());
    else o.nodeTestArgs.push(arg);
  }
  return o;
}

let options: Options;
let files: string[];
try {
  options = parseArgs(process.argv.slice(2));
  const steps = new Set<string>(STEPS);
  files = selectTests({
    fast: options.fast,
    only: options.only.filter((id) => !steps.has(id)),
    skip: options.skip.filter((id) => !steps.has(id)),
    without: options.without,
  });
  // --only naming only steps runs no test file.
  if (options.only.length > 0 && options.only.every((id) => steps.has(id))) files = [];
} catch (error) {
  console.error(`run-tests: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

if (options.list) {
  const lines = Object.entries(TEST_FILES).map(
    ([file, needs]) => `${testId(file).padEnd(48)} ${isLab(file) ? 'lab ' : 'fast'}  ${needs.join(', ')}`,
  );
  lines.push('', `steps: ${STEPS.join(', ')}`, `lab: a file needing any of ${LAB_NEEDS.join(', ')}`);
  for (const [need, what] of Object.entries(NEEDS)) lines.push(`  ${need.padEnd(10)} ${what}`);
  // Exit once the list is written: process.exit() right after console.log may drop what a full
  // pipe had not yet taken (the manifest test once read 172 of 231 lines).
  await new Promise((written) => process.stdout.write(`${lines.join('\n')}\n`, written));
  process.exit(0);
}

/** Whether a step runs: named by --only (or no --only), not by --skip; asan and playwright never in --fast. */
function runs(step: Step): boolean {
  if (options.skip.includes(step)) return false;
  if (options.only.length > 0) return options.only.includes(step);
  return !(options.fast && (step === 'asan' || step === 'playwright'));
}

const bin = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

/** The steps' children (tsc, ESLint, Prettier, Playwright), ended with this runner when it is stopped. */
const stepChildren = new Set<ChildProcess>();

/** Runs a child to its end; output is inherited, so concurrent steps interleave by line. */
function run(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: env ?? process.env });
    stepChildren.add(child);
    child.on('exit', () => stepChildren.delete(child));
    child.on('error', (error) => (console.error(`run-tests: ${command}: ${error.message}`), resolve(1)));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

// The fast loop keeps caches under node_modules/.cache (tsc's build info, ESLint's and
// Prettier's), so a second run checks only what changed; `npm test` (CI: a fresh clone) does not.
const cache = (name: string) => bin(`.cache/diskdelta-${name}`);

/** The type checks of every tsconfig (Node code, renderer, renderer tests, Electron glue): the code runs unbuilt, so nothing else would notice a type error. */
async function typecheck(): Promise<number> {
  const configs = ['tsconfig.json', 'tsconfig.web.json', 'tsconfig.renderer-tests.json', 'tsconfig.electron.json'];
  const one = async (config: string) => {
    const start = performance.now();
    const incremental = options.fast ? ['--incremental', '--tsBuildInfoFile', cache(`tsc/${config}.tsbuildinfo`)] : [];
    const status = await run(process.execPath, [bin('typescript/bin/tsc'), '-p', config, ...incremental]);
    console.log(`typecheck ${config}: ${status === 0 ? 'ok' : 'FAILED'} (${seconds(start)})`);
    return status;
  };
  const statuses = await Promise.all(configs.map(one));
  return statuses.find((s) => s !== 0) ?? 0;
}

/** ESLint: type-aware rules, React hooks, the layering of eslint-rules/layers.js. */
async function lint(): Promise<number> {
  const start = performance.now();
  const cached = options.fast ? ['--cache', '--cache-location', cache('eslint/')] : [];
  const status = await run(process.execPath, [bin('eslint/bin/eslint.js'), ...cached, '.']);
  console.log(`lint: ${status === 0 ? 'ok' : 'FAILED (npm run lint)'} (${seconds(start)})`);
  return status;
}

/** Prettier's check. */
async function format(): Promise<number> {
  const start = performance.now();
  const cached = options.fast ? ['--cache', '--cache-location', cache('prettier')] : [];
  const status = await run(process.execPath, [bin('prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', ...cached, '.']);
  console.log(`format: ${status === 0 ? 'ok' : 'FAILED (npm run format writes it)'} (${seconds(start)})`);
  return status;
}

/**
 * The node tests, each file in its own process group under its time limit (test-file-runner.ts):
 * a file that hangs fails, named, instead of holding the run. Labs (test-manifest.ts) run one at a
 * time with their output as it comes: they use loop devices, the blkio throttle and QEMU guests,
 * and one at a time keeps their timings honest on a 2-core machine. The other files (the fast
 * loop's) wait on child processes more than they compute: `together` runs them twice the cores
 * at once, each file's output printed whole when it ends (every file's in the full run, a
 * failing one's in the fast loop), and fails one that took a shared disk's lock.
 */
async function nodeTests(testFiles: readonly string[], how: { together: boolean; env?: NodeJS.ProcessEnv }): Promise<number> {
  if (testFiles.length === 0) return 0;
  const start = performance.now();
  const { together, env: extraEnv } = how;
  const concurrency = together ? Math.max(2, 2 * availableParallelism()) : 1;
  const fileRuns = await runTestFiles(
    testFiles,
    concurrency,
    (file) => ({
      limitSeconds: timeLimitSeconds(file, options.fileTimeout),
      nodeTestArgs: ['--test-reporter=spec', ...options.nodeTestArgs],
      capture: together,
      watchDiskLocks: together,
      env: extraEnv ? { ...process.env, ...extraEnv } : process.env,
    }),
    (run) => {
      // A fast-loop file that took a shared disk's lock fails, whatever its tests said.
      const shared = together ? run.diskLocks.filter(isSharedDisk) : [];
      if (shared.length > 0) run.status = 1;
      // Each file's line with its time (a lab's output came as it ran, so its tally is in it).
      const counts = together ? specCounts(run.output) : null;
      const tally = counts ? ` ${counts.pass}/${counts.tests} passed${counts.skipped ? `, ${counts.skipped} skipped` : ''}` : '';
      if (together && (run.status !== 0 || !options.fast)) process.stdout.write(run.output);
      console.log(`${run.status === 0 ? 'ok  ' : 'FAIL'} ${run.file}${tally} (${run.seconds.toFixed(1)} s)`);
      if (shared.length > 0)
        console.log(
          `run-tests: ${run.file} FAILED: it measured the shared disk ${shared.join(', ')} (held DiskDelta's machine-wide lock on it), so in the fast loop it would wait whenever another DiskDelta process measures that disk: measure a device of the test's own, or give the file the need 'disk' in scripts/test-manifest.ts`,
        );
      if (run.timedOut)
        console.log(
          `run-tests: ${run.file} FAILED: still running after its limit of ${timeLimitSeconds(run.file, options.fileTimeout)} s; its process group was killed (a wait without a bound? DISKDELTA_TEST_FILE_TIMEOUT or --file-timeout sets the limit)`,
        );
      else if (run.leftBehind) console.log(`run-tests: ${run.file} left processes running in its group when it ended: killed`);
    },
  );
  const failed = fileRuns.filter((r) => r.status !== 0);
  console.log(
    `node tests (${testFiles.length} files${together ? ', no labs, together' : ', one at a time'}): ${failed.length === 0 ? 'ok' : `FAILED: ${failed.map((r) => r.file + (r.timedOut ? ' (time limit)' : '')).join(', ')}`} (${seconds(start)})`,
  );
  return failed.length === 0 ? 0 : 1;
}

// The worker's own tests once more, against its AddressSanitizer + UBSan build: a use after
// free or a leak that the normal build survives fails here (a sanitizer report goes to stderr
// and turns the exit code non-zero, which every worker test checks).
const ASAN_FILES = [
  'native/test/worker.test.ts',
  'native/test/workload.test.ts',
  'native/test/argv-fuzz.test.ts',
  'native/test/sustained.test.ts',
];
async function sanitized(): Promise<number> {
  const asanFiles = options.only.includes('asan') ? ASAN_FILES : ASAN_FILES.filter((f) => files.includes(f));
  if (asanFiles.length === 0) return 0;
  const build = await new Promise<{ status: number; stderr: string }>((resolve) => {
    let stderr = '';
    const child = spawn('make', ['-s', '-C', 'native', 'sanitize'], { stdio: ['ignore', 'inherit', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (error) => resolve({ status: 1, stderr: error.message }));
    child.on('close', (code) => resolve({ status: code ?? 1, stderr }));
  });
  if (build.status !== 0) {
    console.log(`worker under ASan + UBSan: skipped, the compiler cannot build it (make -C native sanitize):\n${build.stderr}`);
    return 0;
  }
  // Together, as the fast loop runs these files: they measure their own temp files, not a lab's devices.
  return nodeTests(asanFiles, {
    together: true,
    env: { DISKDELTA_WORKER: fileURLToPath(new URL('../native/build/diskdelta-worker-asan', import.meta.url)) },
  });
}

/** The app end to end: Playwright in Debian's Chromium against `diskdelta serve` (e2e/). */
function playwright(): Promise<number> {
  return run(process.execPath, [fileURLToPath(import.meta.resolve('@playwright/test/cli')), 'test', '-c', 'e2e/playwright.config.ts']);
}

// The test files run in their own process groups, out of reach of a Ctrl-C to this one: end them.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    killRunningFiles();
    // A `kill` of this runner alone (not a terminal's Ctrl-C to the group) left its tsc running.
    for (const child of stepChildren) child.kill('SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });

const started = performance.now();
const skipped = async () => 0;
// The checks and the fast loop's files at once (the checks are CPU-bound, the tests mostly wait
// on their children); then, in the full run, the labs one at a time, the ASan pass and
// Playwright, each always run. A check's failure fails the run after every test has run.
const [types, style, formatted, quick] = await Promise.all([
  runs('typecheck') ? typecheck() : skipped(),
  runs('lint') ? lint() : skipped(),
  runs('format') ? format() : skipped(),
  nodeTests(
    files.filter((f) => !isLab(f)),
    { together: true },
  ),
]);
const labs = await nodeTests(files.filter(isLab), { together: false });
const asan = runs('asan') ? await sanitized() : 0;
const e2e = runs('playwright') ? await playwright() : 0;
// The exit status is the tests' first failure, else the type check's, else the style's.
const exitCode = [quick, labs, asan, e2e].find((s) => s !== 0) ?? (types || style || formatted);
console.log(`run-tests${options.fast ? ' --fast' : ''}: ${exitCode === 0 ? 'ok' : 'FAILED'} in ${seconds(started)}`);
process.exit(exitCode);
