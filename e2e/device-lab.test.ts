// GROUND TRUTH: a loop device capped by the cgroup v1 blkio throttle at known values
// (40 MB/s, 150 read IOPS — the 2011 laptop hard disk of seed-figures.md). DiskDelta, run
// through the real orchestrator and worker on that block device, must measure the caps:
// sequential read, QD1 random read and bonnie++-style seeks each within ±5 %.
// Needs root, loop devices and cgroup v1 blkio; skips with the reason elsewhere.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runBenchmark } from '../electron/core/bench/orchestrator.ts';
import { locateWorker } from '../electron/core/bench/worker-client.ts';
import type { RunRecord } from '../electron/core/model/results.ts';

const CAP_BPS = 40_000_000;
const CAP_IOPS = 150;
const TOLERANCE = 0.05;
const BLKIO = '/sys/fs/cgroup/blkio';

/** Why the lab cannot run here, or null when it can. */
function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (loop devices and the blkio cgroup)';
  if (!existsSync(join(BLKIO, 'blkio.throttle.read_bps_device'))) return `needs cgroup v1 blkio with throttling at ${BLKIO}`;
  if (spawnSync('losetup', ['--version']).status !== 0) return 'needs losetup (util-linux)';
  return null;
}

let reason = unavailable();
let dir = '';
let device = '';
let group = '';

before(() => {
  if (reason) return;
  dir = mkdtempSync(join(tmpdir(), 'diskdelta-lab-'));
  const image = join(dir, 'disk.img');
  // Sparse is fine: the throttle, not the backing file, sets the speed.
  writeFileSync(image, '');
  assert.equal(spawnSync('truncate', ['-s', '512M', image]).status, 0);
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  if (l.status !== 0) {
    // A container without /dev/loop-control, or every loop device taken: not a lab machine.
    reason = `losetup -f --show failed: ${l.stderr.trim()}`;
    return;
  }
  device = l.stdout.trim();
  const majMin = readFileSync(`/sys/block/${basename(device)}/dev`, 'utf8').trim();

  group = join(BLKIO, `diskdelta-lab-${process.pid}`);
  try {
    mkdirSync(group);
  } catch (error) {
    group = '';
    reason = `cannot create a blkio cgroup: ${(error as Error).message}`;
    return;
  }
  writeFileSync(join(group, 'blkio.throttle.read_bps_device'), `${majMin} ${CAP_BPS}`);
  writeFileSync(join(group, 'blkio.throttle.read_iops_device'), `${majMin} ${CAP_IOPS}`);
  assert.match(readFileSync(join(group, 'blkio.throttle.read_bps_device'), 'utf8'), new RegExp(`${majMin} ${CAP_BPS}`));

  // The worker must do its I/O from inside the group: a wrapper joins it, then becomes the worker.
  const wrapper = join(dir, 'worker-in-cgroup.sh');
  writeFileSync(wrapper, `#!/bin/sh\necho $$ > ${join(group, 'cgroup.procs')} || exit 8\nexec '${locateWorker()}' "$@"\n`);
  chmodSync(wrapper, 0o755);
});

after(() => {
  // Every step on its own: a failure in one must not leave the others behind.
  if (device) spawnSync('losetup', ['-d', device]);
  if (group) {
    // The worker has exited, so the group is empty; allow the kernel a moment to notice.
    for (let i = 0; i < 50 && existsSync(group); i++) {
      try {
        rmdirSync(group);
      } catch {
        spawnSync('sleep', ['0.1']);
      }
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

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
