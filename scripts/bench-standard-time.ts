// `npm run bench:standard-time [-- FOLDER]`: times `diskdelta run --preset standard --no-save`
// with its default settings, as a user runs it, on the disk under FOLDER (default: a temporary
// folder under /tmp, on this machine's disk). Target: ≤ 60 s from start to the printed table.
// A benchmark: it prints the seconds, it does not assert.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const TARGET_SEC = 60;
const root = fileURLToPath(new URL('..', import.meta.url));
const given = process.argv[2];
const folder = given ?? mkdtempSync(join(tmpdir(), 'diskdelta-standard-time-'));
try {
  console.log(`diskdelta run --target ${folder} --preset standard --no-save`);
  const start = performance.now();
  // The whole command, process start-up included: what a person waits for.
  const run = spawnSync(process.execPath, ['bin/diskdelta.js', 'run', '--target', folder, '--preset', 'standard', '--no-save'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) console.log(`the run failed (exit ${run.status ?? run.signal}): the time below is not a finished run`);
  console.log(`standard preset: ${seconds.toFixed(1)} s (target ≤ ${TARGET_SEC} s): ${run.status === 0 && seconds <= TARGET_SEC ? 'met' : 'NOT met'}`);
  process.exitCode = run.status === 0 ? 0 : 1;
} finally {
  if (!given) rmSync(folder, { recursive: true, force: true });
}
