// The helper's smart-log line (native/src/nvme-smart.c prints it) parsed into the model, and the
// words the CLI, show and the report use for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noCountersReason, OCP_C0_GUID_BYTES, parseSmartLog } from './drive-health.ts';
import { criticalWarningWords, driveWarnings, driveWrittenText, healthLines } from '../../shared/analysis/drive-health.ts';

/** A line in the helper's format: what nvme-smart.c prints for a log. */
function line(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    device: '/dev/nvme0n1',
    critical_warning: 0,
    composite_temperature_k: 323,
    available_spare: 100,
    available_spare_threshold: 10,
    percentage_used: 3,
    endurance_group_critical_warning: 0,
    data_units_read: '1000',
    data_units_written: '20',
    host_read_commands: '5',
    host_write_commands: '7',
    controller_busy_minutes: '0',
    power_cycles: '2',
    power_on_hours: '11',
    unsafe_shutdowns: '1',
    media_errors: '0',
    error_log_entries: '0',
    warning_temperature_minutes: 0,
    critical_temperature_minutes: 0,
    temperature_sensors_k: [0, 0, 0, 0, 0, 0, 0, 0],
    thermal_transitions: [4, 0],
    thermal_seconds: [30, 0],
    endurance_log: { absent: 'the controller reports no endurance groups (Identify Controller CTRATT bit 4 clear)' },
    ocp_c0: { absent: 'Get Log Page C0h: the drive answered status 0x4109' },
    ...over,
  });
}

test("parses the helper's line: kelvin to °C, 128-bit counters from their decimal strings", () => {
  const h = parseSmartLog('nvme0n1', line({ data_units_written: '340282366920938463463374607431768211455' }));
  assert.equal(h.protocol, 'nvme');
  if (h.protocol !== 'nvme') return;
  assert.equal(h.temperatureC, 49.85);
  assert.equal(h.dataUnitsRead, 1000);
  assert.equal(h.dataUnitsWritten, 2 ** 128, 'the largest 128-bit count, as near as a number holds it');
  assert.deepEqual(h.thermalTransitions, [4, 0]);
});

test('refuses a line whose counts are not counts, saying which', () => {
  assert.throws(() => parseSmartLog('nvme0n1', line({ data_units_written: '-3' })), /data_units_written is "-3", not a count/);
  assert.throws(() => parseSmartLog('nvme0n1', line({ power_on_hours: 1.5 })), /power_on_hours is 1.5/);
  assert.throws(() => parseSmartLog('nvme0n1', line({ thermal_seconds: [1] })), /thermal management time is not two counts/);
});

test('a drive reporting 0 K has no temperature, not −273 °C', () => {
  const h = parseSmartLog('nvme0n1', line({ composite_temperature_k: 0 }));
  assert.ok(h.protocol === 'nvme' && h.temperatureC === null);
});

test('the critical warning bits in words, and as a warning on a run', () => {
  assert.deepEqual(criticalWarningWords(0), []);
  assert.deepEqual(criticalWarningWords(0b1001), ['available spare below its threshold', 'media placed in read-only mode']);
  const before = parseSmartLog('nvme0n1', line({ critical_warning: 2 }));
  const warnings = driveWarnings({ before, after: before, hostBytesWritten: 0 });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /nvme0n1 reports a critical warning \(0x2: temperature past a threshold\)/);
  assert.deepEqual(driveWarnings({ before: parseSmartLog('nvme0n1', line()), after: null, hostBytesWritten: null }), []);
  const lines = Object.fromEntries(healthLines(before));
  assert.equal(lines['critical warning'], '0x2: temperature past a threshold');
  assert.equal(lines['data units written'], '20 (× 512,000 B = 10,240,000 B)');
  assert.match(lines['flash written']!, /^not reported by this drive \(C0h: Get Log Page C0h: the drive answered status 0x4109; 09h: /);
});

test("a run's writes by the drive's count beside the host's; write amplification not reported where the helper found neither page", () => {
  const before = parseSmartLog('nvme0n1', line({ data_units_written: '20' }));
  const after = parseSmartLog('nvme0n1', line({ data_units_written: '53' }));
  const text = driveWrittenText({ before, after, hostBytesWritten: 16_781_312 });
  assert.match(
    text,
    /^written by the drive's own count: 33 data units of 512,000 B \(16,896,000 B, to within one unit\); the host sent 16,781,312 B/,
  );
  assert.match(
    text,
    /write amplification: not reported \(this drive reports no count of its flash's own writes: C0h: Get Log Page C0h: the drive answered status 0x4109; 09h: the controller reports no endurance groups/,
  );
  assert.match(
    driveWrittenText({ before: { disk: 'vda', protocol: null, reason: 'vda is virtual' }, after: null, hostBytesWritten: null }),
    /not read: vda is virtual/,
  );
});

test('a disk without a log says what it is', () => {
  assert.match(noCountersReason('vda', 'virtual'), /vda \(virtual\) is not an NVMe drive/);
  assert.match(noCountersReason(null, null), /no disk was found/);
});

/** A 512-byte log page as hex, with little-endian 128-bit counters at the given byte offsets. */
function pageHex(counters: Record<number, bigint>, tail?: string): string {
  const page = Buffer.alloc(512);
  for (const [offset, value] of Object.entries(counters)) {
    page.writeBigUInt64LE(value & (2n ** 64n - 1n), Number(offset));
    page.writeBigUInt64LE(value >> 64n, Number(offset) + 8);
  }
  if (tail) Buffer.from(tail, 'hex').copy(page, 512 - tail.length / 2);
  return page.toString('hex');
}

// The layouts, from the specifications, not from a drive (no lab drive has these pages: QEMU
// 7.2's NVMe has neither): NVMe 1.4 figure 205, Endurance Group Information (09h): Data Units
// Written bytes 79:64, Media Units Written bytes 95:80, both in units of 1,000,000,000 B; OCP
// Datacenter NVMe SSD 2.0, SMART / Health Information Extended (C0h): Physical Media Units Written
// bytes 15:0 in bytes, the Log Page GUID AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5 in bytes 511:496.
test("the flash's own writes: OCP C0h's bytes where its GUID says so, else the endurance-group log's units, else why", () => {
  const health = (over: Record<string, unknown>) => {
    const h = parseSmartLog('nvme0n1', line(over));
    assert.equal(h.protocol, 'nvme');
    return h.protocol === 'nvme' ? h.mediaWrites : undefined;
  };
  const ocp = { hex: pageHex({ 0: 123_456_789_012n, 16: 99n }, OCP_C0_GUID_BYTES) };
  const endurance = { group: 1, hex: pageHex({ 48: 5n, 64: 40n, 80: 52n, 96: 7n }) };
  // Both: C0h, counted in bytes, before the endurance group's billions.
  assert.deepEqual(health({ ocp_c0: ocp, endurance_log: endurance }), { source: 'ocp-c0', bytes: 123_456_789_012, unitBytes: 1 });
  assert.deepEqual(health({ endurance_log: endurance }), { source: 'endurance-group', bytes: 52e9, unitBytes: 1e9 });
  assert.equal(
    new Map(healthLines(parseSmartLog('nvme0n1', line({ endurance_log: endurance })))).get('flash written'),
    "52,000,000,000 B, by the endurance-group log (09h), in units of 1,000,000,000 B: the host's writes and the drive's own",
  );
  // A C0h page of another maker (its GUID not OCP's, here the GUID's bytes in the wrong order) is not read as OCP's.
  const reversed = Buffer.from(OCP_C0_GUID_BYTES, 'hex').reverse().toString('hex');
  assert.deepEqual(health({ ocp_c0: { hex: pageHex({ 0: 7n }, reversed) }, endurance_log: endurance }), {
    source: 'endurance-group',
    bytes: 52e9,
    unitBytes: 1e9,
  });
  const neither = health({ ocp_c0: { hex: pageHex({ 0: 7n }) } });
  assert.equal(neither?.source, null);
  assert.match(
    neither?.source === null ? neither.reason : '',
    /^its C0h page is not OCP's \(another GUID: a vendor's own page\); 09h: the controller reports no endurance groups/,
  );
  // An endurance-group log that counts the host's writes but leaves the flash's at 0 does not count them.
  const zero = health({ endurance_log: { group: 2, hex: pageHex({ 64: 40n }) } });
  assert.match(zero?.source === null ? zero.reason : '', /09h\) leaves Media Units Written at 0 beside the host's writes/);
  // A new drive: nothing written yet, so 0 is its count.
  assert.deepEqual(health({ endurance_log: { group: 1, hex: pageHex({}) } }), { source: 'endurance-group', bytes: 0, unitBytes: 1e9 });
  // A page that is not 512 bytes of hex is said to be malformed, not taken as absent.
  const short = health({ ocp_c0: { hex: 'abcd' } });
  assert.match(short?.source === null ? short.reason : '', /C0h: the helper's C0h page is not 512 bytes of hex/);
});
