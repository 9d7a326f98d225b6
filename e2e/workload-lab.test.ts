// GROUND TRUTH for app-start: ext4 on a loop device whose reads the cgroup v1 blkio throttle
// caps at 150 IOPS (the 2011 laptop hard disk of seed-figures.md). Programs of 4 KiB files
// (one read each) started from a cold cache must take files ÷ IOPS, within ±15 % (folders and
// inode tables are read too: a few percent); under a high cap the same start is far quicker.
// Needs root, loop devices and cgroup v1 blkio; skips with the reason elsewhere.
import { spawn, spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { locateWorker } from '../electron/node/bench/worker-client.ts';
import { timeTreeUnder } from '../electron/node/bench/trim/discard-cost.ts';
import { blockLayers } from '../electron/node/system/discard-audit.ts';
import { parseStdout } from '../native/test/worker-harness.ts';
import { HDD_CAPS, labUnavailable, setUpThrottledLab, type ThrottledLab } from './throttled-lab.ts';
import { measureUntilWithin, missOf } from './judge-against-cap.ts';

const READERS = 4;
const FILES = 100; // per program
let reason = labUnavailable();
let slow: ThrottledLab | null = null;
let fast: ThrottledLab | null = null;
let hdd: ThrottledLab | null = null;

before(() => {
  if (reason) return;
  try {
    // Reads capped, writes free: installing the programs is not what is measured.
    slow = setUpThrottledLab({
      name: 'diskdelta-app-150',
      sizeBytes: 256 * 2 ** 20,
      caps: { bytesPerSec: 400e6, iops: HDD_CAPS.iops, writes: false },
      filesystem: true,
    });
    fast = setUpThrottledLab({
      name: 'diskdelta-app-3000',
      sizeBytes: 256 * 2 ** 20,
      caps: { bytesPerSec: 400e6, iops: 3000, writes: false },
      filesystem: true,
    });
    // Reads and writes capped like the 2011 laptop disk: the TRIM test's tree.
    hdd = setUpThrottledLab({ name: 'diskdelta-tree-hdd', sizeBytes: 256 * 2 ** 20, caps: HDD_CAPS, filesystem: true });
  } catch (error) {
    reason = `cannot set the lab up: ${(error as Error).message}`;
  }
});

after(() => {
  slow?.tearDown();
  fast?.tearDown();
  hdd?.tearDown();
});

function appStart(lab: ThrottledLab): Promise<{ seconds: number; cold: string | undefined; files: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      'app-start',
      '--target',
      lab.mountPoint!,
      '--app-mix',
      'small',
      '--readers',
      String(READERS),
      '--app-files',
      String(FILES),
    ];
    const child = spawn(lab.wrap(locateWorker()), [...args, '--runs', '1', '--warmup-passes', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`app-start exited ${code}: ${stderr}${stdout}`));
      const phase = parseStdout(stdout).find((m) => m.type === 'phase');
      if (phase?.type !== 'phase') return reject(new Error(`no phase line: ${stdout}`));
      resolve({ seconds: phase.seconds, cold: phase.cold, files: phase.files });
    });
  });
}

test('app-start under a 150-IOPS cap takes files ÷ IOPS (±15 %); under 3,000 IOPS far less', { skip: reason ?? false }, async () => {
  const expected = (READERS * FILES) / HDD_CAPS.iops;
  // A busy machine only makes the start slower than the cap allows: measured again if outside (judge-against-cap.ts).
  const capped = (
    await measureUntilWithin(
      ['capped'],
      async () => new Map([['capped', await appStart(slow!)]]),
      (_id, start) => missOf(start.seconds, expected, 0.15),
    )
  ).get('capped')!;
  const quick = await appStart(fast!);
  console.log(
    `# 150 IOPS: ${capped.seconds.toFixed(2)} s (files ÷ IOPS = ${expected.toFixed(2)} s); 3,000 IOPS: ${quick.seconds.toFixed(3)} s`,
  );
  assert.equal(capped.cold, 'drop-caches', 'a cold start: the caches were dropped (root)');
  assert.equal(capped.files, READERS * FILES);
  assert.ok(Math.abs(capped.seconds - expected) <= expected * 0.15, `${capped.seconds.toFixed(2)} s vs ${expected.toFixed(2)} s ± 15 %`);
  assert.ok(quick.seconds < capped.seconds / 5, `the high cap's ${quick.seconds.toFixed(3)} s is far below ${capped.seconds.toFixed(2)} s`);
});

test(
  'tree delete on the HDD-capped device, mounted nodiscard then discard: both timed, the loop counters prove discards only with the option',
  { skip: reason ?? false, timeout: 300_000 },
  async () => {
    const lab = hdd!;
    const loop = blockLayers([{ kind: 'loop', name: basename(lab.device), details: {} }]);
    const tree = { files: 300, bytes: 3_000_000, runs: 1, workerPath: lab.wrap(locateWorker()), stopped: 'stopped' };
    const settings = [];
    for (const option of ['nodiscard', 'discard'] as const) {
      const m = spawnSync('mount', ['-o', `remount,${option}`, lab.mountPoint!], { encoding: 'utf8' });
      assert.equal(m.status, 0, m.stderr);
      settings.push(await timeTreeUnder(option, lab.mountPoint!, loop, tree));
    }
    // ext4 sends a delete's discards from its journal thread, which the blkio throttle does not
    // slow (it throttles the cgroup's own I/O): the figures are what they are, the counters decide.
    for (const s of settings) {
      const del = s.figures.find((f) => f.subject === 'delete');
      console.log(`# HDD cap, ${s.option}: delete + syncfs ${del?.value?.toFixed(3)} s, ${s.discards} discards reached ${s.countedOn}`);
      assert.ok(del?.value && del.value > 0, `${s.option}: the delete was timed`);
    }
    assert.equal(settings[0]!.discards, 0, 'nodiscard: no discard reached the device');
    assert.ok(settings[1]!.discards! > 0, `discard: ${settings[1]!.discards} discards reached the device`);
  },
);
