// The blkio throttles on a device, read from a cgroup v1 tree laid out in a temporary root as
// the kernel shows it: every group capping MAJ:MIN is found, other devices' caps are not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blkioGroupOf, blkioThrottles, throttleDetails, throttleFile } from './blkio-throttle.ts';
import { otherThrottleText, throttleText } from '../../shared/report/stack-text.ts';

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
  assert.deepEqual(throttleDetails(found, '/lab/hdd-1'), {
    throttleMeasuredIn: '/lab/hdd-1',
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

test("issue 40 item 4: the caps named as the run's are its own group's (or above it); another group's are named as another's", async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'dd-corners-blkio-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const cap = (path: string, file: Parameters<typeof throttleFile>[0], text: string) => {
    const dir = join(root, 'sys/fs/cgroup/blkio', path);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, throttleFile(file)), text);
  };
  cap('A', 'read_bps', '252:1 40000000\n');
  cap('B', 'read_bps', '252:1 100000000\n');
  cap('B', 'read_iops', '252:1 2000\n');
  mkdirSync(join(root, 'proc/self'), { recursive: true });
  writeFileSync(join(root, 'proc/self/cgroup'), '12:memory:/\n7:blkio:/A\n0::/\n');
  const found = await blkioThrottles(root, '252:1');
  const inA = throttleDetails(found, await blkioGroupOf(root));
  assert.equal(throttleText(inA), "read 40 MB/s (blkio group /A, the run's)");
  assert.equal(otherThrottleText(inA), "blkio group /B: read 100 MB/s, 2,000 IOPS; not the run's: it measured in blkio group /A");
  // In a group below /A, /A's caps still apply (v1 throttles are hierarchical); in /C, none does.
  assert.match(throttleText(throttleDetails(found, '/A/job'))!, /blkio group \/A, above the run's group \/A\/job/);
  const inC = throttleDetails(found, '/C');
  assert.equal(throttleText(inC), null, 'no cap is the run’s');
  assert.match(otherThrottleText(inC)!, /^blkio group \/(A|B): .*\(and 1 more groups\); not the run's: it measured in blkio group \/C$/);
  // Where the run's group is not known, no cap is named as the run's, and that is said.
  const unknown = throttleDetails(found, null);
  assert.equal(throttleText(unknown), null);
  assert.match(otherThrottleText(unknown)!, /whether it capped the run cannot be told/);
});
