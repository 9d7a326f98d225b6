// `npm run bench:standard-time [-- FOLDER]`: times `diskdelta run --preset standard --no-save`
// with its default settings (adaptive stopping), as a user runs it, on the disk under FOLDER
// (default: a temporary folder under /tmp, on this machine's disk). Target: ≤ 20 s from start
// to the printed table, every test's interval printed in it.
//
// `npm run bench:standard-time -- --throttle` (root, cgroup v1 blkio): on the HDD-like throttled
// loop device (40 MB/s, 150 IOPS each way, e2e/throttled-lab.ts), the standard preset's medians
// against CrystalDiskMark's 5 × 5 s on the same file: each within ±3 %, and both runs' seconds.
// A benchmark: it prints the seconds and ratios, it does not assert.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runBenchmark } from '../electron/node/bench/orchestrator.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';
import { HDD_CAPS, setUpThrottledLab } from '../e2e/throttled-lab.ts';

const TARGET_SEC = 20;
const root = fileURLToPath(new URL('..', import.meta.url));

async function throttled(): Promise<void> {
  const sizeBytes = 256 * 2 ** 20;
  const lab = setUpThrottledLab({ name: 'diskdelta-standard-time', sizeBytes: 400 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
  try {
    const worker = locateWorker();
    const prepared = spawnSync(worker, ['prepare', '--target', lab.mountPoint!, '--size', String(sizeBytes)], { encoding: 'utf8' });
    const file = prepared.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; file?: string })
      .find((m) => m.type === 'prepared')?.file;
    if (!file) throw new Error(`prepare failed: ${prepared.stderr}`);
    spawnSync('sync');
    const run = async (label: string, extra: { runs?: number; durationSec?: number }) => {
      const start = performance.now();
      const record = await runBenchmark(
        { target: lab.mountPoint!, preset: 'standard', sizeBytes, ...extra },
        { reuseFile: file, workerPath: lab.wrap(worker) },
      );
      const seconds = (performance.now() - start) / 1000;
      console.log(`${label}: ${seconds.toFixed(1)} s`);
      return record;
    };
    const adaptive = await run('standard, adaptive (defaults)', {});
    const cdm = await run('standard, 5 × 5 s (CrystalDiskMark)', { runs: 5, durationSec: 5 });
    console.log(
      `\n${'test'.padEnd(20)} ${'adaptive IOPS'.padStart(14)} ${'±95 %'.padStart(8)} ${'runs'.padStart(5)} ${'5×5 s IOPS'.padStart(11)}  ratio  verdict`,
    );
    let within = 0;
    for (const a of adaptive.results) {
      const c = cdm.results.find((r) => r.test === a.test)!;
      const ratio = a.iops! / c.iops!;
      const ok = Math.abs(ratio - 1) <= 0.03;
      if (ok) within++;
      const ci = a.precision?.ciRelative;
      console.log(
        `${a.test.padEnd(20)} ${a.iops!.toFixed(1).padStart(14)} ${(ci == null ? '—' : `${(ci * 100).toFixed(1)} %`).padStart(8)} ${String(a.runs.length).padStart(5)} ${c.iops!.toFixed(1).padStart(11)}  ${ratio.toFixed(3)}  ${ok ? 'within ±3 %' : 'OUTSIDE ±3 %'}`,
      );
    }
    console.log(`\n${within} of ${adaptive.results.length} adaptive medians within ±3 % of the 5 × 5 s run`);
    rmSync(file, { force: true });
  } finally {
    lab.tearDown();
  }
}

function onThisDisk(given: string | undefined): void {
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
    console.log(
      `standard preset: ${seconds.toFixed(1)} s (target ≤ ${TARGET_SEC} s): ${run.status === 0 && seconds <= TARGET_SEC ? 'met' : 'NOT met'}`,
    );
    process.exitCode = run.status === 0 ? 0 : 1;
  } finally {
    if (!given) rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--throttle') await throttled();
else onThisDisk(process.argv[2]);
