// The helper's smart-log line (native/src/nvme-smart.c prints it) parsed into the model, and the
// words the CLI, show and the report use for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noCountersReason, parseSmartLog } from './drive-health.ts';
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
});

test("a run's writes by the drive's count beside the host's; write amplification said as not read", () => {
  const before = parseSmartLog('nvme0n1', line({ data_units_written: '20' }));
  const after = parseSmartLog('nvme0n1', line({ data_units_written: '53' }));
  const text = driveWrittenText({ before, after, hostBytesWritten: 16_781_312 });
  assert.match(
    text,
    /^written by the drive's own count: 33 data units of 512,000 B \(16,896,000 B, to within one unit\); the host sent 16,781,312 B/,
  );
  assert.match(text, /write amplification: not read \(its SMART \/ health log counts the host's writes/);
  assert.match(
    driveWrittenText({ before: { disk: 'vda', protocol: null, reason: 'vda is virtual' }, after: null, hostBytesWritten: null }),
    /not read: vda is virtual/,
  );
});

test('a disk without a log says what it is', () => {
  assert.match(noCountersReason('vda', 'virtual'), /vda \(virtual\) is not an NVMe drive/);
  assert.match(noCountersReason(null, null), /no disk was found/);
});
