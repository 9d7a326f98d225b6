// #41 item 3 on the host: the worker's `surface` verb on a loop device capped by the cgroup v1
// blkio throttle (e2e/throttled-lab.ts), a device of one speed. No speed beyond the cap is
// asserted: no zone may read faster than the cap (+5 %), the flat device is one zone over all
// of it, and the device's bytes are the same after (read-only).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labUnavailable, setUpThrottledLab } from './throttled-lab.ts';
import { parseStdout, WORKER } from '../native/test/worker-harness.ts';
import { analyzeSurface, type SurfaceRead } from '../electron/shared/analysis/surface.ts';
import { surfaceReadOf } from '../electron/node/bench/kinds/surface.ts';

const MiB = 2 ** 20;
const CAP = 40_000_000;

test(
  'surface on a blkio-capped loop: one zone over the whole device, no faster than the cap, nothing written',
  { skip: labUnavailable() ?? false, timeout: 120_000 },
  () => {
    let image = '';
    const lab = setUpThrottledLab({
      name: 'dd-surface-blkio',
      sizeBytes: 96 * MiB,
      caps: { bytesPerSec: CAP, iops: 100_000, writes: false },
      filesystem: false,
      fill: (file) => {
        image = file;
        const bytes = Buffer.alloc(96 * MiB);
        for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
        writeFileSync(file, bytes);
      },
    });
    try {
      const hash = () => createHash('sha256').update(readFileSync(image)).digest('hex');
      const before = hash();
      const r = spawnSync(
        lab.wrap(WORKER),
        [
          'surface',
          '--target',
          lab.device,
          '--samples',
          '16',
          '--sample-bytes',
          String(4 * MiB),
          '--block',
          String(MiB),
          '--accesses',
          '16',
        ],
        { encoding: 'utf8', timeout: 100_000 },
      );
      assert.equal(r.status, 0, r.stderr);
      const messages = parseStdout(r.stdout);
      const reads: SurfaceRead[] = messages.flatMap((m) => surfaceReadOf(m) ?? []);
      const a = analyzeSurface(reads, [], 96 * MiB);
      console.log(
        `surface blkio lab: ${a.zones.map((z) => `${z.start / MiB}–${z.end / MiB} MiB ${(z.bytesPerSec / 1e6).toFixed(1)} MB/s`).join('; ')}; cap ${CAP / 1e6} MB/s`,
      );
      assert.equal(reads.length, 16);
      assert.equal(a.zones.length, 1, 'a device of one speed is one zone');
      assert.deepEqual([a.zones[0]!.start, a.zones[0]!.end], [0, 96 * MiB]);
      for (const p of a.points)
        assert.ok(p.bytesPerSec <= CAP * 1.05, `at ${p.offset / MiB} MiB: ${p.bytesPerSec / 1e6} MB/s, over the cap`);
      assert.equal(hash(), before, 'nothing written');
    } finally {
      lab.tearDown();
    }
  },
);
