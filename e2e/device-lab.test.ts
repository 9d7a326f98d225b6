// GROUND TRUTH: a loop device capped by the cgroup v1 blkio throttle at known values
// (40 MB/s, 150 read IOPS — the 2011 laptop hard disk of seed-figures.md). DiskDelta, run
// through the real orchestrator and worker on that block device, must measure the caps:
// sequential read, QD1 random read and bonnie++-style seeks each within ±5 %.
// Needs root, loop devices and cgroup v1 blkio; skips with the reason elsewhere.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runBenchmark } from '../electron/core/bench/orchestrator.ts';
import { locateWorker } from '../electron/core/bench/worker-client.ts';
import type { RunRecord } from '../electron/core/model/results.ts';
import { createThrottledLoop, labUnavailable, type ThrottledLoop } from './throttled-loop.ts';

const CAP_BPS = 40_000_000;
const CAP_IOPS = 150;
const TOLERANCE = 0.05;

let reason = labUnavailable();
let lab: ThrottledLoop | null = null;
let device = '';
let dir = '';

before(() => {
  if (reason) return;
  // Sparse is fine: the throttle, not the backing file, sets the speed.
  const made = createThrottledLoop({ name: 'lab', sizeBytes: 512 * 2 ** 20, readBps: CAP_BPS, readIops: CAP_IOPS });
  if (typeof made === 'string') {
    reason = made;
    return;
  }
  lab = made;
  device = lab.device;
  dir = lab.dir;
  // The worker must do its I/O from inside the group: a wrapper joins it, then becomes the worker.
  const wrapper = join(dir, 'worker-in-cgroup.sh');
  writeFileSync(wrapper, `#!/bin/sh\n${lab.joinGroup(`'${locateWorker()}' "$@"`)}\n`);
  chmodSync(wrapper, 0o755);
});

after(() => lab?.destroy());

test('a throttled loop device reads at its caps: 40 MB/s sequential, 150 IOPS QD1 random, 150 seeks/s', { timeout: 120_000 }, async (t) => {
  if (reason) return t.skip(`device lab: ${reason}`);
  const record: RunRecord = await runBenchmark(
    { target: device, tests: ['seq1m-q8t1-read', 'rnd4k-q1t1-read', 'seeks'], sizeBytes: 512 * 2 ** 20, durationSec: 3, warmupSec: 1, runs: 3, label: 'device lab' },
    { workerPath: join(dir, 'worker-in-cgroup.sh') },
  );
  assert.equal(record.target.kind, 'block-device');
  const find = (id: string) => {
    const r = record.results.find((x) => x.test === id);
    assert.ok(r, `a result for ${id}`);
    return r;
  };
  const seq = find('seq1m-q8t1-read');
  const rnd = find('rnd4k-q1t1-read');
  const seeks = find('seeks');
  const rows = [
    ['seq1m-q8t1-read', 'bytes/s', seq.bytesPerSec!, CAP_BPS, seq.cv],
    ['rnd4k-q1t1-read', 'IOPS', rnd.iops!, CAP_IOPS, rnd.cv],
    ['seeks', 'seeks/s', seeks.iops!, CAP_IOPS, seeks.cv],
  ] as const;
  for (const [id, unit, measured, cap, cv] of rows) {
    console.log(
      `device lab ${id}: measured ${measured.toFixed(unit === 'bytes/s' ? 0 : 1)} ${unit}, cap ${cap}, ratio ${(measured / cap).toFixed(4)}, CV ${cv === null ? '—' : `${(cv * 100).toFixed(2)} %`}`,
    );
  }
  for (const [id, unit, measured, cap] of rows) {
    assert.ok(Math.abs(measured / cap - 1) <= TOLERANCE, `${id}: ${measured.toFixed(1)} ${unit} is not within ±5 % of the cap ${cap}`);
  }
  // On a block device the seeks only read, and say so.
  assert.ok(record.warnings.some((w) => w.code === 'seeks-read-only'));
  for (const r of [seq, rnd, seeks]) assert.equal(r.runs.length, 3);
});
