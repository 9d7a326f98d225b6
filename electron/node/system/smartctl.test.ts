// smartctl -j output for SATA disks, parsed into the DriveHealth model. Samples:
// - smartctl-samples/qemu-harddisk.json: REAL, smartctl 7.3 (Debian 12's smartmontools) run in the
//   lab's QEMU guest on an emulated AHCI disk (-device ahci -device ide-hd): `smartctl -j -A -H -i
//   /dev/sda`. QEMU keeps fixed attributes (hw/ide/core.c smart_attributes) and no write counter.
// - smartctl-samples/virtio-unknown-type.json: REAL, the same smartctl on this host's virtio disk.
// - ssdTable() below is CONSTRUCTED, not captured: smartctl's JSON shape (as in the QEMU sample)
//   with attribute names from smartmontools' drive database (drivedb.h), values invented, for the
//   attributes an SSD has and QEMU's disk has not (241/242, 177, 187, 197, 198).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSmartctl } from './smartctl.ts';
import { driveWarnings, driveWrittenText, healthLines } from '../../shared/analysis/drive-health.ts';
import { driveHealthSchema, type DriveHealth } from '../../shared/model/schemas.ts';

const sample = (name: string) => readFileSync(new URL(`smartctl-samples/${name}`, import.meta.url), 'utf8');

function ata(h: DriveHealth) {
  assert.equal(h.protocol, 'ata', JSON.stringify(h));
  if (h.protocol !== 'ata') throw new Error('not ata');
  driveHealthSchema.parse(h);
  return h;
}

/** A constructed SSD's smartctl JSON (see the header): `attrs` as [id, name, value, raw]. */
function ssdTable(attrs: Array<[number, string, number, number]>, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    json_format_version: [1, 0],
    smartctl: { version: [7, 3], exit_status: 0 },
    device: { name: '/dev/sdb', info_name: '/dev/sdb [SAT]', type: 'sat', protocol: 'ATA' },
    model_name: 'Example SSD',
    logical_block_size: 512,
    smart_status: { passed: true },
    ata_smart_attributes: {
      revision: 1,
      table: attrs.map(([id, name, value, raw]) => ({
        id,
        name,
        value,
        worst: value,
        thresh: 0,
        raw: { value: raw, string: String(raw) },
      })),
    },
    power_on_time: { hours: 1234 },
    power_cycle_count: 56,
    temperature: { current: 38 },
    ...over,
  });
}

test("QEMU's emulated SATA disk (real smartctl output): what it reports, and the rest said, not invented", () => {
  const h = ata(parseSmartctl('sda', sample('qemu-harddisk.json')));
  assert.equal(h.model, 'QEMU HARDDISK');
  assert.equal(h.smartPassed, true);
  assert.equal(h.temperatureC, 31);
  assert.equal(h.powerOnHours, 1);
  assert.equal(h.powerCycles, 0);
  assert.equal(h.reallocatedSectors, 0);
  // QEMU's disk has no 241/242, no wear attribute, no 187/197/198: null, never 0.
  for (const field of [
    'bytesWritten',
    'bytesRead',
    'writeUnitBytes',
    'percentageUsed',
    'wearAttribute',
    'mediaErrors',
    'pendingSectors',
    'offlineUncorrectable',
  ] as const)
    assert.equal(h[field], null, field);
  assert.deepEqual(
    h.attributes.map((a) => a.id),
    [1, 3, 4, 5, 9, 12, 190],
  );
  assert.deepEqual(h.attributes.at(-1), {
    id: 190,
    name: 'Airflow_Temperature_Cel',
    value: 69,
    worst: 69,
    thresh: 50,
    raw: '31 (Min/Max 31/31)',
  });
  const lines = new Map(healthLines(h));
  assert.equal(lines.get('bytes written'), 'not reported by this drive');
  assert.equal(lines.get('overall health'), "PASSED (the drive's own self-assessment)");
  assert.equal(lines.get('190 Airflow_Temperature_Cel'), 'value 69, worst 69, threshold 50, raw 31 (Min/Max 31/31)');
});

test('a disk smartctl cannot use (real output on a virtio disk) is a reason, not counters', () => {
  const h = parseSmartctl('vda', sample('virtio-unknown-type.json'));
  assert.equal(h.protocol, null);
  if (h.protocol === null) assert.match(h.reason, /^smartctl could not read \/dev\/vda: \/dev\/vda: Unable to detect device type/);
  assert.throws(() => parseSmartctl('sda', '{"not":"smartctl"}'), /not smartctl JSON output/);
});

test('an SSD: 241/242 times their unit, wear from 177, errors from 187/5/197/198', () => {
  const h = ata(
    parseSmartctl(
      'sdb',
      ssdTable(
        [
          [5, 'Reallocated_Sector_Ct', 100, 3],
          [177, 'Wear_Leveling_Count', 97, 41],
          [187, 'Reported_Uncorrect', 100, 2],
          [197, 'Current_Pending_Sector', 100, 1],
          [198, 'Offline_Uncorrectable', 100, 0],
          [241, 'Total_LBAs_Written', 99, 1000],
          [242, 'Host_Reads_32MiB', 100, 2],
        ],
        { logical_block_size: 4096 },
      ),
    ),
  );
  assert.equal(h.bytesWritten, 1000 * 4096);
  assert.equal(h.writeUnitBytes, 4096);
  assert.equal(h.bytesRead, 2 * 32 * 2 ** 20);
  assert.equal(h.percentageUsed, 3);
  assert.equal(h.wearAttribute, '177 Wear_Leveling_Count');
  assert.deepEqual([h.mediaErrors, h.reallocatedSectors, h.pendingSectors, h.offlineUncorrectable], [2, 3, 1, 0]);
  assert.deepEqual([h.temperatureC, h.powerOnHours, h.powerCycles], [38, 1234, 56]);
});

test('an attribute whose name does not say what it counts fills no field (vendors reuse the numbers)', () => {
  const h = ata(
    parseSmartctl(
      'sdb',
      ssdTable(
        [
          [241, 'Unknown_Attribute', 100, 77],
          [177, 'Unknown_SSD_Attribute', 90, 5],
          [187, 'Unknown_Attribute', 100, 9],
        ],
        { power_on_time: undefined, temperature: undefined, smart_status: undefined },
      ),
    ),
  );
  assert.deepEqual(
    [h.bytesWritten, h.percentageUsed, h.mediaErrors, h.powerOnHours, h.temperatureC, h.smartPassed],
    [null, null, null, null, null, null],
  );
  assert.equal(h.attributes.length, 3, 'still listed');
  assert.equal(new Map(healthLines(h)).get('overall health'), 'not reported by this drive');
});

test("a run on a SATA SSD: written by attribute 241's count; a failed self-assessment is a warning", () => {
  const reading = (lbas: number, passed: boolean) =>
    ata(parseSmartctl('sdb', ssdTable([[241, 'Total_LBAs_Written', 99, lbas]], { smart_status: { passed } })));
  const text = driveWrittenText({ before: reading(1000, true), after: reading(33_768, true), hostBytesWritten: 16_777_216 });
  assert.match(
    text,
    /^written by the drive's own count: 16,777,216 B \(attribute 241, in units of 512 B: to within one unit\); the host sent 16,777,216 B/,
  );
  assert.deepEqual(driveWarnings({ before: reading(1, true), after: reading(2, true), hostBytesWritten: null }), []);
  const [warning] = driveWarnings({ before: reading(1, true), after: reading(2, false), hostBytesWritten: null });
  assert.equal(warning?.code, 'drive-critical-warning');
  assert.match(warning?.message ?? '', /sdb fails its own SMART overall-health self-assessment/);
  const qemu = ata(parseSmartctl('sda', sample('qemu-harddisk.json')));
  assert.match(driveWrittenText({ before: qemu, after: qemu, hostBytesWritten: 512 }), /keeps no write counter DiskDelta knows/);
});
