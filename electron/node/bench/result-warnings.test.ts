import assert from 'node:assert/strict';
import { test } from 'node:test';
import { likelyWriteCacheBytes, resultWarnings } from './result-warnings.ts';
import type { DeviceFingerprint, StackLayer } from '../../shared/model/machine.ts';

const device = (over: Partial<DeviceFingerprint>): DeviceFingerprint => ({
  name: 'sda',
  model: null,
  serial: null,
  sizeBytes: 120e9,
  rotational: false,
  class: 'SATA SSD',
  transport: 'sata',
  linkCeilingBytesPerSec: 300e6,
  linkDescription: 'SATA 3.0 Gb/s',
  ...over,
});
const mount = (fsType: string, details: Record<string, string | null> = {}): StackLayer => ({
  kind: 'mount',
  name: '/m',
  details: { fsType, ...details },
});
const GiB = 2 ** 30;

test('faster than the link: flagged above the ceiling, not at or below it', () => {
  assert.deepEqual(
    resultWarnings({ bytesPerSec: 301e6, device: device({}) }).map((w) => w.code),
    ['faster-than-link'],
  );
  assert.deepEqual(resultWarnings({ bytesPerSec: 300e6, device: device({}) }), []);
  assert.deepEqual(resultWarnings({ bytesPerSec: null, device: device({}) }), []);
  assert.deepEqual(resultWarnings({ bytesPerSec: 5e9, device: device({ linkCeilingBytesPerSec: null }) }), []); // unknown ceiling: no claim
});

test('the lowest ceiling on the stack counts, not only the target device', () => {
  const stack: StackLayer[] = [
    { kind: 'disk', name: 'sdb', details: { link: 'USB 2.0 high speed (480 Mb/s)' }, linkCeilingBytesPerSec: 60e6 },
  ];
  const warnings = resultWarnings({ bytesPerSec: 80e6, device: device({ linkCeilingBytesPerSec: 600e6 }), stack });
  assert.equal(warnings[0]?.code, 'faster-than-link');
  assert.match(warnings[0]!.message, /sdb/);
});

test('size below RAM only where a cache can serve the test (buffered, tmpfs, ZFS, btrfs compress, loop without dio)', () => {
  const base = { bytesPerSec: 100e6, sizeBytes: GiB, memoryBytes: 8 * GiB, write: false };
  assert.deepEqual(resultWarnings({ ...base, stack: [mount('ext4')] }), []);
  assert.deepEqual(
    resultWarnings({ ...base, stack: [mount('ext4')], buffered: true }).map((w) => w.code),
    ['size-below-ram'],
  );
  assert.deepEqual(
    resultWarnings({ ...base, stack: [mount('tmpfs')] }).map((w) => w.code),
    ['size-below-ram'],
  );
  assert.deepEqual(
    resultWarnings({ ...base, stack: [mount('btrfs', { compress: 'zstd:3' })] }).map((w) => w.code),
    ['size-below-ram'],
  );
  assert.deepEqual(resultWarnings({ ...base, stack: [mount('btrfs', { compress: null })] }), []);
  const loop: StackLayer = { kind: 'loop', name: 'loop0', details: { backingFile: '/img', directIo: false } };
  assert.deepEqual(
    resultWarnings({ ...base, stack: [mount('ext4'), loop] }).map((w) => w.code),
    ['size-below-ram'],
  );
  assert.deepEqual(resultWarnings({ ...base, sizeBytes: 16 * GiB, stack: [mount('tmpfs')] }), []);
  // A write ends with fsync inside its timed window: the page cache cannot serve it (#39 item 6).
  assert.deepEqual(resultWarnings({ ...base, write: true, stack: [mount('tmpfs')] }), []);
  assert.deepEqual(
    resultWarnings({ ...base, write: true, writeOnly: false, stack: [mount('tmpfs')] }).map((w) => w.code),
    ['size-below-ram'],
    'a 70/30 mix still reads',
  );
});

test('write cache: an ESTIMATE per class, checked only for results marked as writes', () => {
  assert.equal(likelyWriteCacheBytes(device({ class: 'HDD' })), 256 * 2 ** 20);
  assert.equal(likelyWriteCacheBytes(device({ class: 'NVMe SSD', sizeBytes: 2e12 })), 2e10);
  assert.equal(likelyWriteCacheBytes(device({ class: 'SATA SSD', sizeBytes: 64e9 })), GiB);
  assert.equal(likelyWriteCacheBytes(device({ class: 'RAM' })), null);
  const hdd = device({ class: 'HDD', linkCeilingBytesPerSec: null });
  assert.deepEqual(
    resultWarnings({ bytesPerSec: 90e6, device: hdd, sizeBytes: 64 * 2 ** 20, write: true }).map((w) => w.code),
    ['size-below-write-cache'],
  );
  assert.deepEqual(resultWarnings({ bytesPerSec: 90e6, device: hdd, sizeBytes: 64 * 2 ** 20, write: false }), []);
  assert.deepEqual(resultWarnings({ bytesPerSec: 90e6, device: hdd, sizeBytes: 64 * 2 ** 20 }), []); // a read, or unknown
  assert.deepEqual(resultWarnings({ bytesPerSec: 90e6, device: hdd, sizeBytes: GiB, write: true }), []);
  assert.match(resultWarnings({ bytesPerSec: 90e6, device: hdd, sizeBytes: 2 ** 20, write: true })[0]!.message, /estimated/);
});

test('reads of a device over a sparse image are flagged: a hole reads as zeros without touching a disk', () => {
  const loop = (allocated: number): StackLayer => ({
    kind: 'loop',
    name: 'loop3',
    details: { backingFile: '/var/tmp/ssd.img', backingFileBytes: 8 * GiB, backingFileAllocatedBytes: allocated, directIo: true },
  });
  const below: StackLayer[] = [
    { kind: 'file', name: '/var/tmp/ssd.img', details: {} },
    mount('ext4'),
    { kind: 'disk', name: 'sda', details: {} },
  ];
  const sparse = [loop(1 * GiB), ...below];
  const read = resultWarnings({ bytesPerSec: 8722e6, stack: sparse, write: false });
  assert.deepEqual(
    read.map((w) => w.code),
    ['sparse-read'],
  );
  assert.match(read[0]!.message, /loop3 reads \/var\/tmp\/ssd\.img, 7 GiB of whose 8 GiB are holes/);
  assert.match(read[0]!.message, /measure memory, not the disk/);
  // Through dm-crypt on that loop device: still no disk under the holes.
  const crypt: StackLayer = { kind: 'dm-crypt', name: 'luks-x', details: {} };
  assert.deepEqual(
    resultWarnings({ bytesPerSec: 1e9, stack: [crypt, ...sparse] }).map((w) => w.code),
    ['sparse-read'],
  );
  assert.deepEqual(resultWarnings({ bytesPerSec: 1e9, stack: sparse, write: true }), [], 'a write to a hole does reach the disk');
  assert.deepEqual(resultWarnings({ bytesPerSec: 1e9, stack: [loop(8 * GiB - 4096), ...below] }), [], 'a written image');
  // A folder on a filesystem on that loop device: DiskDelta writes its test file before reading it.
  assert.deepEqual(resultWarnings({ bytesPerSec: 1e9, stack: [mount('ext4'), ...sparse] }), []);
});
