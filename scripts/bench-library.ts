// `npm run bench:library [-- RUNS]`: builds a library of SYNTHETIC runs (100,000 by default, a
// fleet's) in a temporary database and times what `diskdelta list` does with it. Target: list
// in ≤ 100 ms. A benchmark, not a test: it prints figures and never fails on a slow machine.
//
// Timed, each the median of several repetitions after one warm-up:
//   query   listPage(): the newest page of runs and the count of the rest, as `diskdelta list` reads them
//   render  the text table `diskdelta list` prints
//   all     Library.listRuns() of every run and its table (`--all`), and JSON.stringify (`--json`)
// plus `diskdelta list` as a whole process, next to `diskdelta --version` as the reference
// for what Node's own start-up costs on this machine.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseCount } from '../electron/cli/args.ts';
import { formatRunList, listPage, LIST_PAGE } from '../electron/cli/commands/list.ts';
import { syntheticRun } from '../electron/node/store/fixtures/synthetic-run.ts';
import { openLibrary } from '../electron/node/store/library.ts';

let RUNS = 100_000;
try {
  if (process.argv[2] !== undefined) RUNS = parseCount(process.argv[2], 'the run count', 1, 1_000_000);
} catch (error) {
  console.error(`bench:library: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const TARGET_MS = 100;
const REPEAT = 7;
let lastCold = 0;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median of REPEAT calls after one warm-up call, whose time (cold: no JIT, no prepared statement) is kept too. */
function time(fn: () => void): number {
  const coldStart = performance.now();
  fn();
  lastCold = performance.now() - coldStart;
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-bench-library-'));
const dbPath = join(dir, 'library.sqlite');
try {
  const library = openLibrary({ dbPath });
  // Standard-grid-sized runs: 8 tests × 3 timed runs × 5 samples, so the samples table is
  // far larger than the runs table, as in a real library.
  const buildStart = performance.now();
  const batch = 500;
  for (let n = 0; n < RUNS; n += batch) {
    library.saveRuns(
      Array.from({ length: Math.min(batch, RUNS - n) }, (_, i) => syntheticRun(n + i, { tests: 8, runsPerTest: 3, samplesPerRun: 5 })),
    );
  }
  const buildMs = performance.now() - buildStart;
  const count = library.countRuns();
  console.log(
    `library: ${count.toLocaleString('en-US')} synthetic runs, ${(statSync(dbPath).size / 2 ** 20).toFixed(1)} MiB, built in ${(buildMs / 1000).toFixed(1)} s (${Math.round(count / (buildMs / 1000))} runs/s) at ${dbPath}`,
  );

  let page: ReturnType<typeof listPage> = { runs: [], total: 0 };
  const queryMs = time(() => {
    page = listPage(library, {}, false);
  });
  const queryCold = lastCold;
  if (page.runs.length !== Math.min(LIST_PAGE, count) || page.total !== count) throw new Error('listPage answered the wrong page');
  const renderMs = time(() => formatRunList(page.runs));
  const renderCold = lastCold;
  let rows: ReturnType<typeof library.listRuns> = [];
  const allQueryMs = time(() => {
    rows = library.listRuns();
  });
  const allRenderMs = time(() => formatRunList(rows));
  const jsonMs = time(() => JSON.stringify(rows, null, 2));
  library.close();

  const cli = fileURLToPath(new URL('../bin/diskdelta.js', import.meta.url));
  const processMs = (args: string[]) =>
    time(() => {
      const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (result.status !== 0) throw new Error(`diskdelta ${args.join(' ')} failed: ${result.stderr}`);
    });
  const startupMs = processMs(['--version']);
  const listProcessMs = processMs(['list', '--db', dbPath]);

  const verdict = (ms: number) => (ms <= TARGET_MS ? `within the ${TARGET_MS} ms target` : `OVER the ${TARGET_MS} ms target`);
  // A shared 2-core machine skews these timings: the load says how much.
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`list, in process (median of ${REPEAT}), a page of the newest ${LIST_PAGE} and the count:`);
  console.log(`  query   listPage()            ${queryMs.toFixed(1)} ms`);
  console.log(`  render  text table            ${renderMs.toFixed(1)} ms`);
  console.log(`  query + render                ${(queryMs + renderMs).toFixed(1)} ms  ${verdict(queryMs + renderMs)}`);
  console.log(`  first call (cold JIT)         ${(queryCold + renderCold).toFixed(1)} ms  ${verdict(queryCold + renderCold)}`);
  console.log(`every run (--all, --json; no target: a person asked for all ${count.toLocaleString('en-US')}):`);
  console.log(`  query   listRuns()            ${allQueryMs.toFixed(1)} ms`);
  console.log(`  render  text table            ${allRenderMs.toFixed(1)} ms`);
  console.log(`  json    --json serialisation  ${jsonMs.toFixed(1)} ms`);
  console.log(`whole process (median of ${REPEAT}):`);
  console.log(`  diskdelta --version           ${startupMs.toFixed(1)} ms  (Node start-up reference)`);
  console.log(
    `  diskdelta list                ${listProcessMs.toFixed(1)} ms  (${(listProcessMs - startupMs).toFixed(1)} ms above start-up, ${(listProcessMs / startupMs).toFixed(2)}× the reference)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
