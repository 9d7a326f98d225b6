// `npm run fuzz [-- --minutes N] [--only job-parse,argv,ndjson]`: the long runs of the project's
// fuzz targets, N minutes each (default 10), one after another (or only the named ones), printing how many inputs each tried. `npm test` runs the same
// properties briefly; this is for before a release or after touching a parser.
//   1. job-parse   libFuzzer on the worker's --job parser (native/fuzz, needs clang)
//   2. argv        the worker's whole command line, through the sanitizer build
//   3. ndjson      the TypeScript reader of the worker's output
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { anyBytes, overlong, roundTrip } from '../electron/node/bench/ndjson-reader.fuzz.ts';
import { workerArgv } from '../native/test/argv.fuzz.ts';

const minutesFlag = process.argv.indexOf('--minutes');
const minutes = minutesFlag > 0 ? Number(process.argv[minutesFlag + 1]) : 10;
if (!(minutes > 0)) {
  console.error('fuzz: --minutes takes a number above 0, e.g. --minutes 10');
  process.exit(2);
}
const budgetMs = minutes * 60_000;
const TARGETS = ['job-parse', 'argv', 'ndjson'];
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag > 0 ? (process.argv[onlyFlag + 1] ?? '').split(',') : TARGETS;
const unknown = only.filter((name) => !TARGETS.includes(name));
if (unknown.length > 0) {
  console.error(`fuzz: no target named ${unknown.join(', ')}; the targets are ${TARGETS.join(', ')}`);
  process.exit(2);
}
const native = fileURLToPath(new URL('../native/', import.meta.url));
let failed = false;

// Only what the chosen targets run is built: libFuzzer's binary for job-parse, the sanitizer
// build for argv (without it, argv runs the shipped worker); ndjson needs no build.
const makeTargets = [...(only.includes('job-parse') ? ['fuzz'] : []), ...(only.includes('argv') ? ['sanitize'] : [])];
const build = makeTargets.length > 0 ? spawnSync('make', ['-s', '-C', native, ...makeTargets], { encoding: 'utf8' }) : null;

/** 1. libFuzzer: in-process, millions of inputs. */
function fuzzJobParse(): void {
  if (!build || build.status !== 0) {
    console.log(
      `job-parse: skipped, the libFuzzer build failed (needs clang and libclang-rt: apt-get install clang-14 libclang-rt-14-dev):\n${build?.stderr ?? ''}`,
    );
  } else {
    // What libFuzzer finds goes to a fresh folder; the checked-in seeds stay as they are.
    const corpus = mkdtempSync(join(tmpdir(), 'diskdelta-fuzz-job-'));
    const run = spawnSync(
      join(native, 'build', 'fuzz-job-parse'),
      [`-max_total_time=${Math.round(budgetMs / 1000)}`, '-print_final_stats=1', corpus, join(native, 'fuzz', 'seeds')],
      { encoding: 'utf8' },
    );
    const runs = /stat::number_of_executed_units:\s*(\d+)/.exec(run.stderr)?.[1] ?? '?';
    console.log(
      `job-parse: ${run.status === 0 ? 'no finding' : 'FINDING (crash input saved in the current folder)'}, ${runs} inputs in ${minutes} min`,
    );
    if (run.status !== 0) {
      console.log(run.stderr.slice(-4000));
      failed = true;
    }
  }
}

/** Runs a property in batches until the budget is spent; returns how many inputs it tried. */
function forAWhile(name: string, properties: fc.IProperty<any>[], batch: number): void {
  const end = Date.now() + budgetMs;
  let tried = 0;
  try {
    while (Date.now() < end) {
      for (const property of properties) {
        fc.assert(property, { numRuns: batch, seed: Date.now() ^ tried });
        tried += batch;
      }
    }
    console.log(`${name}: no finding, ${tried} inputs in ${minutes} min`);
  } catch (error) {
    console.log(`${name}: FINDING after ${tried} inputs:\n${(error as Error).message.slice(0, 4000)}`);
    failed = true;
  }
}

if (only.includes('job-parse')) fuzzJobParse();
if (only.includes('argv')) forAWhile('argv', [workerArgv], 50);
if (only.includes('ndjson')) forAWhile('ndjson', [roundTrip, anyBytes, overlong], 500);
process.exit(failed ? 1 : 0);
