// The drive temperature reader on planted sysfs trees. These machines have no NVMe drive and no
// SATA drive with a sensor (their disk is virtio), so nothing here reads a real drive: the
// trees are laid out as the kernel lays them out (drivers/nvme/host/hwmon.c registers on the
// controller, drivers/hwmon/drivetemp.c on the SCSI device; the hwmon core puts a `hwmon/`
// glue folder under a device without a class), with the attributes and limits `sensors` shows
// for these drives (fixtures/write-fixtures.ts). A layout the fixtures do not have (the first
// kernels' PCI-function registration, an NVMe multipath head) is planted here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findTemperatureSensor, readCelsius } from './drive-temperature.ts';

const fixture = (name: string) => ({ root: path.join(import.meta.dirname, 'fixtures', name) });

test('NVMe (Samsung PM981, kernel 6.1): the controller hwmon found from nvme0n1, Composite read, its 81.85 °C warning and 84.85 °C critical; the CPU and ACPI sensors beside it are not taken', async () => {
  const found = await findTemperatureSensor('nvme0n1', fixture('nvme-lvm-luks2'));
  assert.ok(found.value, found.reason);
  assert.equal(found.value.driver, 'nvme');
  assert.equal(found.value.label, 'Composite');
  assert.equal(found.value.hwmon, '/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/hwmon2');
  assert.deepEqual([found.value.maxC, found.value.critC], [81.85, 84.85]);
  // Composite (38.85), not Sensor 2 (43.85).
  assert.deepEqual(await readCelsius(found.value, fixture('nvme-lvm-luks2')), { value: 38.85 });
});

test('NVMe (WD SN850X, kernel 6.8): its own limits, 84.85 and 89.85 °C', async () => {
  const found = await findTemperatureSensor('nvme0n1', fixture('zfs'));
  assert.ok(found.value, found.reason);
  assert.deepEqual([found.value.maxC, found.value.critC], [84.85, 89.85]);
  assert.deepEqual(await readCelsius(found.value, fixture('zfs')), { value: 40.85 });
});

test("SATA (Samsung 860, drivetemp loaded): the sensor under the SCSI device's hwmon/ folder, 33 °C, limits 70 °C", async () => {
  const found = await findTemperatureSensor('sda', fixture('btrfs-compress'));
  assert.ok(found.value, found.reason);
  assert.equal(found.value.driver, 'drivetemp');
  assert.equal(found.value.label, 'temp1');
  assert.equal(found.value.hwmon, '/sys/devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/hwmon/hwmon1');
  assert.deepEqual([found.value.maxC, found.value.critC], [70, 70]);
  assert.deepEqual(await readCelsius(found.value, fixture('btrfs-compress')), { value: 33 });
});

test('no sensor: a SATA disk without drivetemp says how to get one; a USB stick and an unknown disk say why', async () => {
  const hdd = await findTemperatureSensor('sda', fixture('x201i-hdd'));
  assert.equal(hdd.value, null);
  assert.match(hdd.reason!, /^sda: no drivetemp sensor for it .*modprobe drivetemp/);
  const stick = await findTemperatureSensor('sdb', fixture('usb-exfat'));
  assert.equal(stick.value, null);
  assert.match(stick.reason!, /USB sticks/);
  const missing = await findTemperatureSensor('nvme9n1', fixture('nvme-lvm-luks2'));
  assert.deepEqual(missing, { value: null, reason: '/sys/block/nvme9n1 does not exist' });
});

/** A planted tree: `files` by absolute path (content), `links` by absolute path (target, absolute). */
function plant(files: Record<string, string>, links: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'diskdelta-hwmon-'));
  for (const [abs, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, abs)), { recursive: true });
    writeFileSync(path.join(root, abs), `${content}\n`);
  }
  for (const [abs, to] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(root, abs)), { recursive: true });
    symlinkSync(path.relative(path.dirname(abs), to), path.join(root, abs));
  }
  return root;
}

test("NVMe on the first kernels with its hwmon (5.5–5.x): registered on the PCI function, so under its hwmon/ folder, with no label and the drive's limits", async (t) => {
  const pci = '/sys/devices/pci0000:00/0000:00:1b.0/0000:02:00.0';
  const hw = `${pci}/hwmon/hwmon1`;
  const root = plant(
    { [`${hw}/name`]: 'nvme', [`${hw}/temp1_input`]: '51850', [`${hw}/temp1_max`]: '79850', [`${hw}/temp1_crit`]: '84850' },
    { '/sys/class/hwmon/hwmon1': hw, [`${hw}/device`]: pci, '/sys/block/nvme0n1': `${pci}/nvme/nvme0/nvme0n1` },
  );
  mkdirSync(path.join(root, `${pci}/nvme/nvme0/nvme0n1`), { recursive: true });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const found = await findTemperatureSensor('nvme0n1', { root });
  assert.ok(found.value, found.reason);
  assert.deepEqual([found.value.label, found.value.maxC, found.value.critC], ['temp1', 79.85, 84.85]);
  assert.deepEqual(await readCelsius(found.value, { root }), { value: 51.85 });
});

test('an NVMe multipath head (/sys/devices/virtual/nvme-subsystem/…): the sensor found through the controller path it lists', async (t) => {
  const ctrl = '/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0';
  const head = '/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1';
  const hw = `${ctrl}/hwmon3`;
  const root = plant(
    {
      [`${hw}/name`]: 'nvme',
      [`${hw}/temp1_input`]: '45850',
      [`${hw}/temp1_label`]: 'Composite',
      [`${head}/dev`]: '259:0',
      [`${ctrl}/nvme0c0n1/dev`]: '259:1',
    },
    {
      '/sys/class/hwmon/hwmon3': hw,
      [`${hw}/device`]: ctrl,
      '/sys/block/nvme0n1': head,
      [`${head}/multipath/nvme0c0n1`]: `${ctrl}/nvme0c0n1`,
    },
  );
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const found = await findTemperatureSensor('nvme0n1', { root });
  assert.ok(found.value, found.reason);
  assert.equal(found.value.hwmon, hw);
  // Unset thresholds read as absent, not as -273 °C or 65261 °C.
  assert.deepEqual([found.value.maxC, found.value.critC], [null, null]);
});

test('a reading outside what a working drive can read (−40 °C to 150 °C) is refused with the value, never returned as a temperature', async (t) => {
  const pci = '/sys/devices/pci0000:00/0000:00:1b.0/0000:02:00.0';
  const hw = `${pci}/hwmon/hwmon1`;
  const root = plant(
    { [`${hw}/name`]: 'nvme', [`${hw}/temp1_input`]: '40000' },
    { '/sys/class/hwmon/hwmon1': hw, [`${hw}/device`]: pci, '/sys/block/nvme0n1': `${pci}/nvme/nvme0/nvme0n1` },
  );
  mkdirSync(path.join(root, `${pci}/nvme/nvme0/nvme0n1`), { recursive: true });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const found = await findTemperatureSensor('nvme0n1', { root });
  assert.ok(found.value, found.reason);
  const at = (milli: string) => {
    writeFileSync(path.join(root, `${hw}/temp1_input`), `${milli}\n`);
    return readCelsius(found.value!, { root });
  };
  assert.deepEqual(await at('999000'), {
    value: null,
    reason: '999 °C, which no working drive reads (-40 °C to 150 °C)',
    implausible: 999,
  });
  assert.deepEqual(await at('-273150'), {
    value: null,
    reason: '-273.15 °C, which no working drive reads (-40 °C to 150 °C)',
    implausible: -273.15,
  });
  assert.equal((await at('65261850')).reason, '65261.85 °C, which no working drive reads (-40 °C to 150 °C)', "NVMe's 0xFFFF K");
  assert.deepEqual(await at('150000'), { value: 150 }, 'the edges are kept');
  assert.deepEqual(await at('-40000'), { value: -40 });
});

test('a sensor file that is a FIFO (nothing ever writes it) is refused at once with what it is, not waited on', async (t) => {
  const pci = '/sys/devices/pci0000:00/0000:00:1b.0/0000:02:00.0';
  const hw = `${pci}/hwmon/hwmon1`;
  const root = plant(
    { [`${hw}/name`]: 'nvme' },
    { '/sys/class/hwmon/hwmon1': hw, [`${hw}/device`]: pci, '/sys/block/nvme0n1': `${pci}/nvme/nvme0/nvme0n1` },
  );
  mkdirSync(path.join(root, `${pci}/nvme/nvme0/nvme0n1`), { recursive: true });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  execFileSync('mkfifo', [path.join(root, `${hw}/temp1_input`)]);
  const found = await findTemperatureSensor('nvme0n1', { root });
  assert.deepEqual(found, {
    value: null,
    reason: `nvme sensor of nvme0n1: ${hw}/temp1_input is a FIFO (named pipe), not a regular file: it was not read`,
  });
});
