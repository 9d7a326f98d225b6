import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activeScheduler } from './block-devices.ts';
import { classify, placementOf } from './classify.ts';
import { parseCpuinfo, parseMemTotal } from './cpu-memory.ts';
import { dmKindFromUuid, parseCryptArgs, parseDmTables, splitLvmName } from './dm.ts';
import { allOptions, findMount, optionValue, parseMountinfo } from './mountinfo.ts';

const MOUNTINFO = [
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard',
  '25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=100k',
  '30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=200k',
  '40 27 7:0 / /mnt/my\\040disk rw,noatime shared:5 - ext4 /dev/loop0 rw,commit=30',
  'garbage line',
].join('\n');

test('mountinfo: fields, octal escapes, optional fields, and super options', () => {
  const entries = parseMountinfo(MOUNTINFO);
  assert.equal(entries.length, 4);
  const loop = entries[3]!;
  assert.equal(loop.mountPoint, '/mnt/my disk');
  assert.deepEqual([loop.major, loop.minor], [7, 0]);
  assert.equal(loop.fsType, 'ext4');
  assert.equal(loop.source, '/dev/loop0');
  assert.deepEqual(allOptions(loop), ['rw', 'noatime', 'commit=30']);
  assert.equal(optionValue(allOptions(loop), 'commit'), '30');
  assert.equal(optionValue(allOptions(entries[0]!), 'discard'), '');
});

test('findMount: longest mount point wins, and the later of two mounts on one point', () => {
  const entries = parseMountinfo(MOUNTINFO);
  assert.equal(findMount(entries, '/dev/shm/x')?.id, 30);
  assert.equal(findMount(entries, '/mnt/my disk/a/b')?.id, 40);
  assert.equal(findMount(entries, '/mnt/my diskette')?.id, 27); // a prefix of the name is not a parent
  assert.equal(findMount(entries, '/')?.id, 27);
});

test('dm tables: crypt with a keyring key, flags and sector size; linear', () => {
  const tables = parseDmTables(
    'luks-1: 0 1000 crypt aes-xts-plain64 :64:logon:cryptsetup:abc-d0 0 259:3 32768 3 allow_discards sector_size:4096 no_read_workqueue\n' +
      'vg-root: 0 800 linear 254:0 2048\nvg-root: 800 200 linear 254:0 4096\n',
  );
  assert.equal(tables.get('vg-root')?.length, 2);
  const crypt = parseCryptArgs(tables.get('luks-1')![0]!.args)!;
  assert.equal(crypt.cipher, 'aes-xts-plain64');
  assert.equal(crypt.keyBits, 512);
  assert.equal(crypt.cipherKeyBits, 256); // XTS: two AES-256 keys
  assert.equal(crypt.keyInKeyring, true);
  assert.deepEqual(crypt.flags, ['allow_discards', 'sector_size:4096', 'no_read_workqueue']);
  assert.equal(crypt.sectorSize, 4096);
  assert.equal(crypt.device, '259:3');
});

test('dm-crypt hex keys (shown as zeros without --showkeys) still give the key size', () => {
  const crypt = parseCryptArgs(['aes-cbc-essiv:sha256', '0'.repeat(64), '0', '8:2', '2056'])!;
  assert.equal(crypt.keyBits, 256);
  assert.equal(crypt.cipherKeyBits, 256);
  assert.deepEqual(crypt.flags, []);
  assert.equal(parseCryptArgs(['too', 'short']), null);
});

test('dm uuids say who made the device; LVM names undouble their dashes', () => {
  assert.equal(dmKindFromUuid('CRYPT-LUKS2-0b1c-x'), 'crypt-luks2');
  assert.equal(dmKindFromUuid('CRYPT-LUKS1-0b1c-x'), 'crypt-luks1');
  assert.equal(dmKindFromUuid('LVM-abc'), 'lvm');
  assert.equal(dmKindFromUuid(null), 'other');
  assert.deepEqual(splitLvmName('vg0-root'), { vg: 'vg0', lv: 'root' });
  assert.deepEqual(splitLvmName('my--vg-lv--a'), { vg: 'my-vg', lv: 'lv-a' });
});

test('cpuinfo: x86 AES-NI/VAES, physical cores vs threads; ARM Features', () => {
  const x86 = parseCpuinfo(
    'processor\t: 0\nmodel name\t: Test CPU\nphysical id\t: 0\ncore id\t\t: 0\nflags\t\t: fpu aes avx2 vaes\n\n' +
      'processor\t: 1\nmodel name\t: Test CPU\nphysical id\t: 0\ncore id\t\t: 0\nflags\t\t: fpu aes avx2 vaes\n',
  );
  assert.deepEqual(x86, { model: 'Test CPU', cores: 1, threads: 2, arch: 'x86', cryptoFlags: ['aes', 'vaes', 'avx2'] });
  const arm = parseCpuinfo(
    'processor\t: 0\nFeatures\t: fp asimd aes pmull sha1 sha2 crc32\n\nprocessor\t: 1\nFeatures\t: fp asimd aes pmull sha1 sha2 crc32\n\nHardware\t: BCM2835\n',
  );
  assert.equal(arm.arch, 'arm');
  assert.deepEqual(arm.cryptoFlags, ['aes', 'pmull', 'sha1', 'sha2']);
  assert.equal(arm.cores, 2);
  assert.equal(arm.model, 'BCM2835');
  const noAes = parseCpuinfo('processor\t: 0\nmodel name\t: Old\ncore id\t: 0\nflags\t\t: fpu sse2\n');
  assert.deepEqual(noAes.cryptoFlags, []);
  assert.equal(parseMemTotal('MemTotal:       24684092 kB\n'), 24684092 * 1024);
  assert.equal(parseMemTotal('nothing'), null);
});

test('transport and class from the sysfs path and name', () => {
  const usb = placementOf('sdb', '/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.4/2-1.4:1.0/host6/target6:0:0/6:0:0:0/block/sdb');
  assert.deepEqual(usb, { transport: 'usb', anchor: '/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.4' });
  assert.equal(placementOf('sda', '/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda').transport, 'sata');
  assert.equal(placementOf('vda', '/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda').transport, 'virtio');
  assert.equal(placementOf('zram0', '/sys/devices/virtual/block/zram0').transport, 'zram');
  assert.equal(classify('sata', true), 'HDD');
  assert.equal(classify('sata', false), 'SATA SSD');
  assert.equal(classify('sata', null), 'unknown');
  assert.equal(classify('usb', true), 'USB'); // usb-storage reports sticks as rotational
  assert.equal(classify('scsi', false), 'unknown'); // a SAS SSD is not a "SATA SSD"
  assert.equal(activeScheduler('none [mq-deadline] kyber bfq'), 'mq-deadline');
  assert.equal(activeScheduler('none'), 'none');
});
