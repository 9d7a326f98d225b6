// The blkio throttles on a device, read from a cgroup v1 tree laid out in a temporary root as
// the kernel shows it: every group capping MAJ:MIN is found, other devices' caps are not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blkioThrottles, throttleDetails, throttleFile } from './blkio-throttle.ts';

test('caps on the device in nested groups are found with their group; other devices’ and zero caps are not', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'dd-blkio-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const group = (path: string, files: Partial<Record<Parameters<typeof throttleFile>[0], string>>) => {
    const dir = join(root, 'sys/fs/cgroup/blkio', path);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files))
      writeFileSync(join(dir, throttleFile(name as Parameters<typeof throttleFile>[0])), text!);
  };
  group('', { read_bps: '', write_bps: '' });
  group('lab/hdd-1', { read_bps: '7:3 40000000\n', read_iops: '7:3 150\n', write_bps: '8:0 1000\n' });
  group('other', { read_bps: '7:3 0\n' });
  const found = await blkioThrottles(root, '7:3');
  assert.deepEqual(found, [{ group: '/lab/hdd-1', readBps: 40e6, writeBps: null, readIops: 150, writeIops: null }]);
  assert.deepEqual(throttleDetails(found), {
    throttleGroup: '/lab/hdd-1',
    throttleReadBps: 40e6,
    throttleWriteBps: null,
    throttleReadIops: 150,
    throttleWriteIops: null,
    throttleGroups: 1,
  });
  assert.deepEqual(await blkioThrottles(root, '7:4'), []);
  assert.deepEqual(await blkioThrottles(join(root, 'none'), '7:3'), [], 'no cgroup v1 blkio: none');
});
