// The drive's temperature through a real run (the real orchestrator and worker on a temporary
// folder) read from a planted sysfs tree: this machine's disk (virtio) has no sensor and no
// NVMe or SATA drive is here, so the sensor is an NVMe controller's hwmon laid out as the
// kernel lays it out (system/drive-temperature.test.ts), registered for the disk the folder is
// on. What could not be tested here: reading a real drive's sensor while it heats, and a real
// drive throttling (analysis/thermal.test.ts judges figures that do).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeTarget } from '../system/index.ts';
import { openLibrary } from '../store/library.ts';
import { runBenchmark } from './orchestrator.ts';

/** An NVMe controller with a PM981's Composite sensor (warning 81.85 °C), and `disk` beneath it. */
function plantNvmeSensor(disk: string): { root: string; setCelsius(c: number): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'diskdelta-sensor-'));
  const ctrl = '/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0';
  const hw = `${ctrl}/hwmon2`;
  const at = (abs: string) => path.join(root, abs);
  mkdirSync(at(`${ctrl}/${disk}`), { recursive: true });
  mkdirSync(at(hw), { recursive: true });
  mkdirSync(at('/sys/class/hwmon'), { recursive: true });
  mkdirSync(at('/sys/block'), { recursive: true });
  for (const [file, value] of Object.entries({ name: 'nvme', temp1_label: 'Composite', temp1_max: '81850', temp1_crit: '84850' }))
    writeFileSync(at(`${hw}/${file}`), `${value}\n`);
  symlinkSync(path.relative(hw, ctrl), at(`${hw}/device`));
  symlinkSync(path.relative('/sys/class/hwmon', hw), at('/sys/class/hwmon/hwmon2'));
  symlinkSync(path.relative('/sys/block', `${ctrl}/${disk}`), at(`/sys/block/${disk}`));
  return { root, setCelsius: (c) => writeFileSync(at(`${hw}/temp1_input`), `${Math.round(c * 1000)}\n`) };
}

const SPEC = { tests: ['seq1m-q1t1-read', 'seq1m-q1t1-write'], sizeBytes: 16 * 2 ** 20, durationSec: 0.3, warmupSec: 0.1, runs: 2 };

test('a run reads the drive temperature before, during (each reading tagged with its test) and after; 84 °C past the 81.85 °C warning is drive-hot; the library keeps it all', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diskdelta-temp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const disk = (await describeTarget(dir)).target.device?.name;
  if (!disk) return t.skip(`the disk under ${dir} is not known here, so no sensor can be planted for it`);
  const sensor = plantNvmeSensor(disk);
  t.after(() => rmSync(sensor.root, { recursive: true, force: true }));
  sensor.setCelsius(60);
  // The drive heats once the write test starts (the progress says so), and stays hot.
  const record = await runBenchmark(
    { target: dir, ...SPEC },
    {
      temperature: { root: sensor.root, intervalMs: 50 },
      onEvent: (e) => {
        if (e.type === 'progress' && e.test === 'seq1m-q1t1-write') sensor.setCelsius(84);
      },
    },
  );
  const temp = record.temperature;
  assert.ok(temp && temp.sensor === 'nvme', JSON.stringify(temp));
  assert.deepEqual(
    [temp.disk, temp.label, temp.beforeC, temp.afterC, temp.peakC, temp.maxC, temp.critC],
    [disk, 'Composite', 60, 84, 84, 81.85, 84.85],
  );
  const during = (test: string) => temp.readings.filter((r) => r.test === test).map((r) => r.celsius);
  assert.ok(during('seq1m-q1t1-read').length > 0 && during('seq1m-q1t1-read').every((c) => c === 60), 'the read test ran cool');
  assert.ok(during('seq1m-q1t1-write').includes(84), 'the write test ran hot');
  assert.deepEqual(
    [temp.readings[0]!.test, temp.readings.at(-1)!.test],
    [undefined, undefined],
    'the first reading is before any test, the last after all',
  );
  const hot = record.warnings.find((w) => w.code === 'drive-hot');
  assert.match(hot?.message ?? '', new RegExp(`^${disk} reached 84 °C, at or above its warning temperature, 81\\.85 °C`));

  const lib = openLibrary({ dbPath: path.join(dir, 'library.db') });
  t.after(() => lib.close());
  assert.deepEqual(lib.getRun(lib.saveRun(record))?.temperature, temp);
});

test("this machine's own disk, read live: its sensor's readings where it has one, else the reason it has none, kept on the record", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diskdelta-temp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const record = await runBenchmark({ target: dir, ...SPEC, tests: ['seq1m-q1t1-read'] });
  const temp = record.temperature;
  assert.ok(temp, 'every measured run says what it knows of the temperature');
  if (temp.sensor === null) {
    // Here: a virtio disk, no /sys/class/hwmon at all.
    t.diagnostic(`no drive temperature on this machine: ${temp.reason}`);
    assert.ok(temp.reason.length > 0);
    assert.ok(!record.warnings.some((w) => w.code === 'drive-hot'));
  } else {
    t.diagnostic(`${temp.disk} (${temp.sensor}): ${temp.beforeC} → ${temp.afterC} °C`);
    assert.equal(typeof temp.beforeC, 'number');
    assert.ok(temp.readings.length >= 2);
  }
});

test('readings no working drive gives (999 °C, −273.15 °C) are not kept and raise no drive-hot: the run says they were refused', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diskdelta-temp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const disk = (await describeTarget(dir)).target.device?.name;
  if (!disk) return t.skip(`the disk under ${dir} is not known here, so no sensor can be planted for it`);
  const sensor = plantNvmeSensor(disk);
  t.after(() => rmSync(sensor.root, { recursive: true, force: true }));
  sensor.setCelsius(999);
  const seen: string[] = [];
  const record = await runBenchmark(
    { target: dir, ...SPEC },
    {
      temperature: { root: sensor.root, intervalMs: 50 },
      onEvent: (e) => {
        if (e.type === 'warning') seen.push(e.code);
        if (e.type === 'progress' && e.test === 'seq1m-q1t1-write') sensor.setCelsius(-273.15);
      },
    },
  );
  const temp = record.temperature;
  assert.ok(temp && temp.sensor === 'nvme', JSON.stringify(temp));
  assert.deepEqual([temp.beforeC, temp.afterC, temp.peakC, temp.readings], [null, null, null, []], 'nothing impossible is kept');
  assert.ok(!record.warnings.some((w) => w.code === 'drive-hot'), 'no drive-hot from 999 °C');
  const refused = record.warnings.find((w) => w.code === 'temperature-refused');
  assert.match(
    refused?.message ?? '',
    new RegExp(
      `^\\d+ readings of ${disk}'s nvme sensor \\(999 °C, -273\\.15 °C\\) lay outside what a working drive can read \\(-40 °C to 150 °C\\) and were not kept`,
    ),
  );
  assert.ok(seen.includes('temperature-refused'), 'said as the run ends, as its other warnings are');
});
