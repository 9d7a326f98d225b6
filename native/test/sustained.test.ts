// The worker's `sustained` verb on the real binary: what it reports adds up to what it wrote, a
// stop keeps the measured part of the stream and removes the file, bad input is refused before
// anything is written. Speeds are printed, never asserted (they are this machine's); the lab
// (e2e/sustained-write-lab.test.ts) checks them against a throttle of known shape.
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodeOf } from '../../electron/shared/model/failures.ts';
import type { WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';
import { runWorker, startWorker, testFiles, type Outcome } from './worker-harness.ts';

const MiB = 2 ** 20;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'dd-sustained-'));
  dirs.push(d);
  return d;
}

type Sample = Extract<WorkerMessage, { type: 'sustained-sample' }>;
type Phase = Extract<WorkerMessage, { type: 'sustained-phase' }>;
const samples = (o: { messages: WorkerMessage[] }, phase: string) =>
  o.messages.filter((m): m is Sample => m.type === 'sustained-sample' && m.phase === phase);
const phaseLine = (o: { messages: WorkerMessage[] }, phase: string) =>
  o.messages.find((m): m is Phase => m.type === 'sustained-phase' && m.phase === phase);
const failure = (o: Outcome) => o.messages.find((m) => m.type === 'error');

/** A folder where O_DIRECT reaches a disk, or the reason there is none (tmpfs as TMPDIR). */
async function directFolder(): Promise<{ dir: string } | { skip: string }> {
  const dir = folder();
  const probe = await runWorker(['sustained', '--target', dir, '--size', String(MiB)]);
  const err = failure(probe);
  if (err && err.type === 'error' && err.code === 'no-direct-io') return { skip: `${tmpdir()} takes no O_DIRECT: ${err.message}` };
  return { dir };
}

/** Each sample's bytes are the one before plus its interval's; the last is the stream's whole. */
function assertAddsUp(list: Sample[], phase: Phase, label: string) {
  assert.ok(list.length >= 1, `${label}: at least one sample`);
  let before = 0;
  for (const s of list) {
    assert.equal(s.bytes, before + s.interval_bytes, `${label}: sample at ${s.t_ms} ms adds its interval to the one before`);
    assert.ok(s.interval_ns > 0, `${label}: an interval has a length`);
    before = s.bytes;
  }
  assert.equal(list.at(-1)!.bytes, phase.bytes, `${label}: the last sample is the stream's bytes`);
}

describe('sustained: one sequential stream past the cache, then a recovery stream', () => {
  test('fill and recovery: samples add up to the bytes written, one write per block, the rest is idle time, the file is removed', async (t) => {
    const where = await directFolder();
    if ('skip' in where) return t.skip(where.skip);
    const o = await runWorker([
      'sustained',
      '--target',
      where.dir,
      '--size',
      String(48 * MiB),
      '--sample-ms',
      '50',
      '--rest',
      '0.3',
      '--recovery-size',
      String(16 * MiB),
    ]);
    assert.equal(o.code, 0, o.stderr);
    const hello = o.messages.find((m) => m.type === 'hello');
    assert.ok(hello && hello.type === 'hello' && hello.kind === 'folder' && hello.direct, 'a folder, with O_DIRECT');
    const fill = phaseLine(o, 'fill');
    const recovery = phaseLine(o, 'recovery');
    assert.ok(fill && recovery, 'a line for each stream');
    assert.deepEqual([fill.bytes, fill.planned_bytes, fill.ios, fill.complete], [48 * MiB, 48 * MiB, 48, true]);
    assert.deepEqual([recovery.bytes, recovery.ios, recovery.complete], [16 * MiB, 16, true]);
    assert.equal(fill.rest_ns, 0);
    assert.ok(recovery.rest_ns >= 0.3e9, `the recovery waited its rest (${recovery.rest_ns} ns)`);
    assertAddsUp(samples(o, 'fill'), fill, 'fill');
    assertAddsUp(samples(o, 'recovery'), recovery, 'recovery');
    // Progress counts both streams against their sum.
    const last = o.messages.filter((m) => m.type === 'progress').at(-1);
    assert.ok(last && last.type === 'progress');
    assert.deepEqual([last.done_bytes, last.total_bytes], [64 * MiB, 64 * MiB]);
    assert.deepEqual(testFiles(where.dir), [], 'the test file is gone');
    console.log(`fill ${((fill.bytes / fill.elapsed_ns) * 1e3).toFixed(0)} MB/s on this machine (not judged)`);
  });

  test('--depth 4 --block 128 KiB: four writers share one stream, every block written once', async (t) => {
    const where = await directFolder();
    if ('skip' in where) return t.skip(where.skip);
    const o = await runWorker([
      'sustained',
      '--target',
      where.dir,
      '--size',
      String(32 * MiB),
      '--block',
      String(128 * 1024),
      '--depth',
      '4',
    ]);
    assert.equal(o.code, 0, o.stderr);
    const fill = phaseLine(o, 'fill');
    assert.ok(fill);
    assert.deepEqual([fill.bytes, fill.ios, fill.depth, fill.block], [32 * MiB, 256, 4, 128 * 1024]);
    assert.equal(phaseLine(o, 'recovery'), undefined, 'no recovery stream without --recovery-size');
  });

  test('SIGTERM mid-stream: the measured part is reported (complete false), exit "interrupted", the file removed', async (t) => {
    const where = await directFolder();
    if ('skip' in where) return t.skip(where.skip);
    const free = statfsSync(where.dir).bavail * statfsSync(where.dir).bsize;
    const size = Math.min(8 * 2 ** 30, Math.floor(free / 4 / MiB) * MiB);
    const w = startWorker([
      'sustained',
      '--target',
      where.dir,
      '--size',
      String(size),
      '--sample-ms',
      '50',
      '--recovery-size',
      String(MiB),
    ]);
    await w.waitFor((m) => m.type === 'sustained-sample' && m.bytes > 0, 60_000);
    w.child.kill('SIGTERM');
    const o = await w.exited;
    assert.equal(o.code, exitCodeOf('interrupted'));
    const fill = phaseLine(o, 'fill');
    assert.ok(fill, 'the cut stream still has its line');
    assert.equal(fill.complete, false);
    assert.ok(fill.bytes > 0 && fill.bytes < size, `part of the stream (${fill.bytes} of ${size})`);
    assertAddsUp(samples(o, 'fill'), fill, 'fill');
    assert.equal(phaseLine(o, 'recovery'), undefined, 'no recovery after a stop');
    assert.deepEqual(testFiles(where.dir), [], 'the test file is gone');
  });

  test('refused before anything is written: more than the free space, a recovery longer than the stream, an unaligned block', async (t) => {
    const where = await directFolder();
    if ('skip' in where) return t.skip(where.skip);
    const huge = await runWorker(['sustained', '--target', where.dir, '--size', String(2 ** 49)]);
    assert.equal(huge.code, exitCodeOf('no-space'));
    assert.match(JSON.stringify(failure(huge)), /not enough free space.*Choose a smaller/);
    const longer = await runWorker(['sustained', '--target', where.dir, '--size', String(8 * MiB), '--recovery-size', String(16 * MiB)]);
    assert.equal(longer.code, exitCodeOf('usage'));
    assert.match(JSON.stringify(failure(longer)), /--recovery-size 16 MiB is more than --size 8 MiB/);
    const odd = await runWorker(['sustained', '--target', where.dir, '--size', String(8 * MiB), '--block', '6000']);
    assert.equal(odd.code, exitCodeOf('usage'));
    assert.match(JSON.stringify(failure(odd)), /--block 6000 is not a multiple of 4096/);
    const other = await runWorker(['sustained', '--target', where.dir, '--job', 'rw=read']);
    assert.equal(other.code, exitCodeOf('usage'), '--job is not an option of sustained');
    for (const o of [huge, longer, odd]) assert.equal(o.messages.filter((m) => m.type === 'sustained-sample').length, 0);
    assert.deepEqual(testFiles(where.dir), []);
  });
});
