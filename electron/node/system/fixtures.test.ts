// Verdicts on the fixture machines (fixtures/<machine>/, written by fixtures/write-fixtures.ts):
// the class and link ceiling of each disk, the layers under a path, which are encrypted,
// whether discards get through, the lowest ceiling, and the warnings.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { describeTarget, inspectPath, listBlockDevices, readSystemFacts } from './index.ts';
// The verdicts on a figure are bench/'s; these fixtures are where they meet real machine facts.
import { resultWarnings } from '../bench/result-warnings.ts';

const fixture = (name: string) => ({ root: fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)) });
const kinds = (layers: Array<{ kind: string }> | undefined) => (layers ?? []).map((l) => l.kind);

describe('ThinkPad X201i, 2011, laptop HDD', () => {
  test('sda is an HDD on a SATA 2 link: 300 MB/s ceiling', async () => {
    const [sda] = await listBlockDevices(fixture('x201i-hdd'));
    assert.equal(sda?.name, 'sda');
    assert.equal(sda?.class, 'HDD');
    assert.equal(sda?.transport, 'sata');
    assert.equal(sda?.linkCeilingBytesPerSec, 300e6);
    assert.equal(sda?.linkDescription, 'SATA 3.0 Gb/s');
    assert.equal(sda?.serial, 'TE85113Q0K1J5B'); // from VPD page 0x80
    assert.equal(sda?.scheduler, 'cfq');
    assert.equal(sda?.discard.supported, false);
    assert.deepEqual(sda?.partitions, ['sda1', 'sda5']);
  });

  test('/ is ext4 on sda1; no TRIM; no AES-NI; no systemd to ask about fstrim.timer', async () => {
    const report = await inspectPath('/home/user', fixture('x201i-hdd'));
    assert.deepEqual(kinds(report.target.stack), ['file', 'mount', 'partition', 'disk']);
    assert.equal(report.target.device?.class, 'HDD');
    assert.equal(report.trim.reachesDisk, false);
    assert.equal(report.trim.blockedAt, 'disk sda');
    assert.deepEqual(report.system.cryptoFlags, []);
    assert.equal(report.system.kernel, '2.6.38-8-generic');
    assert.equal(report.system.fstrimTimer?.enabled, null);
    assert.match(report.system.fstrimTimer?.reason ?? '', /no systemd/);
    assert.deepEqual(report.warnings, []);
  });
});

describe('ThinkPad X201i after the upgrade: Intel 320 SSD, ext4 on LUKS1', () => {
  test('the SSD is a SATA SSD still capped by the SATA 2 link', async () => {
    const devices = await listBlockDevices(fixture('x201i-ssd-luks'));
    const sda = devices.find((d) => d.name === 'sda');
    assert.equal(sda?.class, 'SATA SSD');
    assert.equal(sda?.linkCeilingBytesPerSec, 300e6);
    assert.deepEqual(sda?.holders, []);
    assert.deepEqual(sda?.partitionHolders, { sda2: ['dm-0'] });
    const dm = devices.find((d) => d.name === 'dm-0');
    assert.equal(dm?.dmName, 'sda2_crypt');
    assert.deepEqual(dm?.slaves, ['sda2']);
  });

  test('dm-crypt layer: aes-cbc-essiv 256-bit, no allow_discards, so TRIM stops there', async () => {
    const report = await inspectPath('/', fixture('x201i-ssd-luks'));
    assert.deepEqual(kinds(report.target.stack), ['file', 'mount', 'dm-crypt', 'partition', 'disk']);
    const crypt = report.target.stack!.find((l) => l.kind === 'dm-crypt')!;
    assert.equal(crypt.encrypted, true);
    assert.equal(crypt.details.format, 'LUKS1');
    assert.equal(crypt.details.cipher, 'aes-cbc-essiv:sha256');
    assert.equal(crypt.details.keyBits, 256);
    assert.equal(crypt.details.allow_discards, false);
    assert.equal(crypt.discardPasses, false);
    assert.equal(report.encryptedLayers.length, 1);
    assert.equal(report.trim.reachesDisk, false);
    assert.equal(report.trim.blockedAt, 'dm-crypt sda2_crypt');
    assert.equal(report.lowestCeiling?.bytesPerSec, 300e6);
  });

  test('a read faster than the SATA 2 link is flagged; the 2011 figure (132,673 KiB/s) is not', async () => {
    const { target } = await describeTarget('/', fixture('x201i-ssd-luks'));
    const seedRead = 132_673 * 1024;
    assert.deepEqual(
      resultWarnings({ bytesPerSec: seedRead, device: target.device!, stack: target.stack! }).map((w) => w.code),
      [],
    );
    const tooFast = resultWarnings({ bytesPerSec: 450e6, device: target.device!, stack: target.stack! });
    assert.deepEqual(
      tooFast.map((w) => w.code),
      ['faster-than-link'],
    );
    assert.match(tooFast[0]!.message, /than the 300(\.0)? MB\/s that sda/);
  });
});

describe('NVMe laptop, ext4 on LVM on LUKS2', () => {
  test('the NVMe SSD on PCIe 3.0 x4', async () => {
    const devices = await listBlockDevices(fixture('nvme-lvm-luks2'));
    const nvme = devices.find((d) => d.name === 'nvme0n1');
    assert.equal(nvme?.class, 'NVMe SSD');
    assert.equal(nvme?.model, 'SAMSUNG MZVLB512HAJQ-000L7');
    assert.equal(nvme?.serial, 'S4ENNF0M812345');
    assert.equal(nvme?.linkDescription, 'PCIe 3.0 x4 (8 GT/s)');
    assert.equal(nvme?.linkCeilingBytesPerSec, Math.round(((8e9 * 128) / 130 / 8) * 4));
    assert.equal(nvme?.scheduler, 'none');
  });

  test('allow_discards: LVM → dm-crypt (LUKS2, AES-256-XTS, keyring) → partition → disk, TRIM reaches the SSD', async () => {
    const report = await inspectPath('/home/user', fixture('nvme-lvm-luks2'));
    assert.deepEqual(kinds(report.target.stack), ['file', 'mount', 'lvm', 'dm-crypt', 'partition', 'disk']);
    const [, mount, lvm, crypt] = report.target.stack!;
    assert.equal(mount!.details.onlineDiscard, 'off');
    assert.equal(mount!.details.atime, 'noatime');
    assert.equal(mount!.details.commit, '60');
    assert.equal(lvm!.details.vg, 'vg0');
    assert.equal(lvm!.details.lv, 'root');
    assert.equal(crypt!.details.format, 'LUKS2');
    assert.equal(crypt!.details.cipherKeyBits, 256);
    assert.equal(crypt!.details.allow_discards, true);
    assert.equal(crypt!.details.no_read_workqueue, true);
    assert.equal(crypt!.details.no_write_workqueue, true);
    assert.equal(crypt!.details.same_cpu_crypt, false);
    assert.equal(report.trim.reachesDisk, true);
    assert.equal(report.trim.fstrimTimer?.enabled, true);
    assert.equal(report.trim.fstrimTimer?.systemdRunning, true);
    assert.deepEqual(report.system.cryptoFlags, ['aes', 'pclmulqdq', 'avx2']);
    assert.equal(report.system.cores, 4);
    assert.equal(report.system.threads, 8);
  });

  test('without allow_discards: `discard` on the mount, and the crypt layer stops every discard', async () => {
    const report = await inspectPath('/', fixture('nvme-lvm-luks2-nodiscard'));
    assert.equal(report.trim.onlineDiscard, 'on');
    assert.equal(report.trim.reachesDisk, false);
    assert.equal(report.trim.blockedAt, 'dm-crypt nvme0n1p3_crypt');
    const crypt = report.target.stack!.find((l) => l.kind === 'dm-crypt')!;
    assert.equal(crypt.details.allow_discards, false);
  });
});

describe('USB stick with exFAT', () => {
  test('class USB (even though usb-storage calls it rotational), USB 3 5 Gb/s link, no discard', async () => {
    const sdb = (await listBlockDevices(fixture('usb-exfat'))).find((d) => d.name === 'sdb');
    assert.equal(sdb?.class, 'USB');
    assert.equal(sdb?.rotational, true);
    assert.equal(sdb?.removable, true);
    assert.equal(sdb?.model, 'SanDisk Ultra Fit');
    assert.equal(sdb?.serial, '4C530001230918117395'); // from the USB device, not VPD
    assert.equal(sdb?.linkCeilingBytesPerSec, 500e6);
  });

  test('the stick is the lowest ceiling under the mount; exFAT gives no cache warning', async () => {
    const report = await inspectPath('/media/user/STICK/photos', fixture('usb-exfat'));
    assert.equal(report.target.device?.name, 'sdb');
    assert.equal(report.lowestCeiling?.bytesPerSec, 500e6);
    assert.equal(report.target.stack![1]!.details.fsType, 'exfat');
    assert.deepEqual(report.warnings, []);
  });
});

describe('btrfs with compression', () => {
  test('anonymous device number resolved through the source; compression and async discard seen', async () => {
    const report = await inspectPath('/home/user', fixture('btrfs-compress'));
    assert.deepEqual(kinds(report.target.stack), ['file', 'mount', 'partition', 'disk']);
    const mount = report.target.stack![1]!;
    assert.equal(mount.name, '/home');
    assert.equal(mount.details.compress, 'zstd:3');
    assert.equal(report.trim.onlineDiscard, 'async');
    assert.equal(report.trim.reachesDisk, true);
    assert.equal(report.target.device?.class, 'SATA SSD');
    assert.equal(report.lowestCeiling?.bytesPerSec, 600e6);
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['fs-compresses'],
    );
  });
});

describe('ZFS', () => {
  test('ZFS warning, pool disks unknown with the reason, discard decided by the pool', async () => {
    const report = await inspectPath('/home/user', fixture('zfs'));
    assert.deepEqual(
      report.warnings.map((w) => w.code),
      ['fs-zfs', 'device-unknown'],
    );
    assert.match(report.warnings[0]!.message, /O_DIRECT/);
    assert.equal(report.target.device, undefined);
    assert.equal(report.trim.onlineDiscard, null);
    assert.match(report.unknowns.join(' '), /zpool status/);
    assert.equal(report.system.fstrimTimer?.enabled, false);
  });

  test('a test size below RAM on ZFS is flagged (the ARC can serve it)', async () => {
    const { target, system } = await describeTarget('/home/user', fixture('zfs'));
    const codes = resultWarnings({ bytesPerSec: 2e9, stack: target.stack!, sizeBytes: 2 ** 30, memoryBytes: system.memoryBytes }).map(
      (w) => w.code,
    );
    assert.deepEqual(codes, ['size-below-ram']);
  });
});

test('system facts of a fixture: memory in bytes, model, kernel', async () => {
  const facts = await readSystemFacts(fixture('usb-exfat'));
  assert.equal(facts.memoryBytes, 32000000 * 1024);
  assert.equal(facts.cpuModel, 'AMD Ryzen 7 7840U w/ Radeon  780M Graphics');
  assert.ok(facts.cryptoFlags.includes('vaes'));
  assert.equal(facts.cores, 8);
});
