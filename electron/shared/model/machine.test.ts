// One word for a device's class wherever it is shown: Overview's Disks card and mounts table,
// `diskdelta devices` and `diskdelta inspect` (issue #43: a filesystem on loop0 was "unknown" in
// the mounts table beside a Disks card calling loop0 "loop").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stackDeviceClass, type StackLayer } from './machine.ts';

const file = (name: string): StackLayer => ({ kind: 'file', name, details: { path: name } });
const mount = (name: string, fsType: string): StackLayer => ({ kind: 'mount', name, details: { fsType, mountPoint: name } });
const loop = (name: string): StackLayer => ({ kind: 'loop', name, details: { backingFile: '/dev/shm/disk.img' } });
const disk = (name: string, cls: string): StackLayer => ({ kind: 'disk', name, details: { class: cls } });

test('a filesystem on a loop device whose file is in tmpfs: "loop", the Disks card\'s word, not unknown', () => {
  const stack = [file('/mnt/x'), mount('/mnt/x', 'ext4'), loop('loop0'), file('/dev/shm/disk.img'), mount('/dev/shm', 'tmpfs')];
  assert.equal(stackDeviceClass(stack, null), 'loop');
});

test('a loop device whose file sits on a disk is still "loop": the device under the mount is the loop', () => {
  const stack = [file('/mnt/x'), mount('/mnt/x', 'ext4'), loop('loop0'), file('/var/disk.img'), mount('/', 'ext4'), disk('vda', 'virtual')];
  assert.equal(stackDeviceClass(stack, { class: 'virtual' }), 'loop');
});

test("dm-crypt over a partition: the disk's class", () => {
  const stack: StackLayer[] = [
    file('/home'),
    mount('/home', 'ext4'),
    { kind: 'dm-crypt', name: 'dm-0', details: {} },
    { kind: 'partition', name: 'nvme0n1p2', details: {} },
    disk('nvme0n1', 'NVMe SSD'),
  ];
  assert.equal(stackDeviceClass(stack, { class: 'NVMe SSD' }), 'NVMe SSD');
});

test('tmpfs: "RAM", as zram is; nothing readable: null', () => {
  assert.equal(stackDeviceClass([file('/tmp'), mount('/tmp', 'tmpfs')], null), 'RAM');
  assert.equal(stackDeviceClass([file('/srv'), mount('/srv', 'nfs4')], null), null);
});

test('devtmpfs keeps its files in RAM as tmpfs does: "RAM", not unknown', () => {
  assert.equal(stackDeviceClass([file('/dev/x'), mount('/dev', 'devtmpfs')], null), 'RAM');
});
