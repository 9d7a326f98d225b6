// `npm run fuzz [-- --minutes N]`: the long runs of the project's fuzz targets, N minutes each
// (default 10), one after another, printing how many inputs each tried. `npm test` runs the same
// properties briefly; this is for before a release or after touching a parser.
//   1. job-parse   libFuzzer on the worker's --job parser (native/fuzz, needs clang)
//   2. argv        the worker's whole command line, through the sanitizer build
//   3. ndjson      the TypeScript reader of the worker's output
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { anyBytes, overlong, roundTrip } from '../electron/core/bench/ndjson-reader.fuzz.ts';
import { workerArgv } from '../native/test/argv.fuzz.ts';

const minutesFlag = process.argv.indexOf('--minutes');
const minutes = minutesFlag > 0 ? Number(process.argv[minutesFlag + 1]) : 10;
if (!(minutes > 0)) {
  console.error('fuzz: --minutes takes a number above 0, e.g. --minutes 10');
  process.exit(2);
}
const budgetMs = minutes * 60_000;
const native = fileURLToPath(new URL('../native/', import.meta.url));
let failed = false;

// 1. libFuzzer: in-process, millions of inputs.
const build = spawnSync('make', ['-s', '-C', native, 'fuzz', 'sanitize'], { encoding: 'utf8' });
if (build.status !== 0) {
  console.log(
    `job-parse: skipped, the libFuzzer build failed (needs clang and libclang-rt: apt-get install clang-14 libclang-rt-14-dev):\n${build.stderr}`,
  );
} else {
  const corpus = mkdtempSync(join(tmpdir(), 'diskdelta-fuzz-job-'));
  writeFileSync(join(corpus, 'grid'), 'name=seq1m-q8t1-read,rw=read,bs=1048576,qd=8,threads=1');
  writeFileSync(join(corpus, 'mixed'), 'name=mix,rw=randrw,read=70,bs=4096,qd=8,threads=1');
  writeFileSync(join(corpus, 'seeks'), 'name=sk,rw=seeks,threads=3');
  const run = spawnSync(
    join(native, 'build', 'fuzz-job-parse'),
    [`-max_total_time=${Math.round(budgetMs / 1000)}`, '-print_final_stats=1', corpus],
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

forAWhile('argv', [workerArgv], 50);
forAWhile('ndjson', [roundTrip, anyBytes, overlong], 500);
process.exit(failed ? 1 : 0);
