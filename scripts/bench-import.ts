// `npm run bench:import [-- JOBS]`: imports a generated fio JSON file of 200,000 jobs (by
// default; 40 MB, under the 50 MiB limit) the way `diskdelta import` does — read, parse, save
// into a temporary library — and prints the time of each step. Target: under 10 s in all.
// A quarter of the jobs is timed first, so the ratio shows whether the import is linear (4 is
// linear; #23 item 6 found 28 for 60k against 10k). A benchmark, not a test: it prints figures
// and never fails on a slow machine; the load average is printed beside them.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseCount } from '../electron/cli/args.ts';
import { manyJobsFio } from '../electron/node/formats/fixtures/many-jobs-fio.ts';
import { parseImport, readImportFile } from '../electron/node/formats/index.ts';
import { importItems, openLibrary } from '../electron/node/store/library.ts';

let JOBS = 200_000;
try {
  if (process.argv[2] !== undefined) JOBS = parseCount(process.argv[2], 'the job count', 4, 400_000);
} catch (error) {
  console.error(`bench:import: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const TARGET_S = 10;

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-bench-import-'));

async function importOnce(jobs: number): Promise<{ bytes: number; readS: number; parseS: number; saveS: number }> {
  const file = join(dir, `fio-${jobs}.json`);
  writeFileSync(file, manyJobsFio(jobs, 'distinct'));
  const library = openLibrary({ dbPath: join(dir, `library-${jobs}.sqlite`) });
  try {
    const t0 = performance.now();
    const read = await readImportFile(file);
    const t1 = performance.now();
    const runs = parseImport(read.text, read.fileName);
    const t2 = performance.now();
    library.importRuns(importItems(runs, read.bytes));
    const t3 = performance.now();
    return { bytes: statSync(file).size, readS: (t1 - t0) / 1000, parseS: (t2 - t1) / 1000, saveS: (t3 - t2) / 1000 };
  } finally {
    library.close();
  }
}

try {
  const load = loadavg()[0]!.toFixed(1);
  const quarter = await importOnce(Math.round(JOBS / 4));
  const full = await importOnce(JOBS);
  const total = (r: typeof full) => r.readS + r.parseS + r.saveS;
  const line = (jobs: number, r: typeof full) =>
    `${String(jobs).padStart(7)} jobs  ${(r.bytes / 1e6).toFixed(1).padStart(5)} MB  read ${r.readS.toFixed(2)} s  ` +
    `parse ${r.parseS.toFixed(2)} s  save ${r.saveS.toFixed(2)} s  total ${total(r).toFixed(2)} s`;
  console.log(`bench:import (load average ${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`);
  console.log(line(Math.round(JOBS / 4), quarter));
  console.log(line(JOBS, full));
  console.log(`ratio full / quarter: ${(total(full) / total(quarter)).toFixed(2)} (linear: 4)`);
  console.log(`target: under ${TARGET_S} s for ${JOBS} jobs — ${total(full) < TARGET_S ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
