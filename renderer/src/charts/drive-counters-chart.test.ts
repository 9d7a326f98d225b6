// The drive's own count of what a run wrote (#41 item 1) in Compare and the report: a run with
// the NVMe counters read before and after shows the bytes the drive counted beside the host's,
// and its write amplification where the drive counts its flash's writes (else not judged, not
// reported or not read, with why); a run beside it without them says why; runs without any
// counters get no table at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { measuredRecord } from '../../../electron/shared/model/result-builders.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import type { DriveHealth, MediaWrites } from '../../../electron/shared/model/schemas.ts';
import type { TableChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { ChartGrid } from './chart-view.ts';
import { draw } from './dom.ts';
import { bytesWrittenDuring, driveWrittenText, healthLines } from '../../../electron/shared/analysis/drive-health.ts';

// A SATA drive's reading: its written count in units of `unit` bytes (null: a stored run whose unit was not kept).
function ataReading(bytes: number, unit: number | null = 512): Extract<DriveHealth, { protocol: 'ata' }> {
  return {
    disk: 'sdb',
    protocol: 'ata',
    model: null,
    smartPassed: true,
    temperatureC: null,
    powerOnHours: null,
    powerCycles: null,
    bytesWritten: bytes,
    bytesRead: null,
    writeUnitBytes: unit,
    percentageUsed: null,
    wearAttribute: null,
    mediaErrors: null,
    reallocatedSectors: null,
    pendingSectors: null,
    offlineUncorrectable: null,
    attributes: [],
  };
}

function nvme(written: number, percentageUsed: number, mediaWrites?: MediaWrites): DriveHealth {
  return {
    ...(mediaWrites ? { mediaWrites } : {}),
    disk: 'nvme0n1',
    protocol: 'nvme',
    criticalWarning: 0,
    temperatureC: 50,
    availableSparePercent: 100,
    availableSpareThresholdPercent: 10,
    percentageUsed,
    dataUnitsRead: 10,
    dataUnitsWritten: written,
    hostReadCommands: 1,
    hostWriteCommands: 1,
    powerOnHours: 1,
    powerCycles: 1,
    unsafeShutdowns: 0,
    mediaErrors: 0,
    errorLogEntries: 0,
    warningTemperatureMinutes: 0,
    criticalTemperatureMinutes: 0,
    thermalTransitions: [0, 0],
    thermalSeconds: [0, 0],
  };
}

function run(label: string, drive: RunRecord['drive']): RunRecord {
  return measuredRecord({ label, ...(drive ? { drive } : {}) });
}

// 1,000 units (512 MB) counted by the drive for 511,705,088 B the host sent; the old SATA disk's were not read.
const nvmeRun = run('new NVMe', { before: nvme(20, 3), after: nvme(1020, 4), hostBytesWritten: 511_705_088 });
const sataRun = run('old SATA', {
  before: { disk: 'sda', protocol: null, reason: 'sda is a SATA disk: its attributes are not read yet' },
  after: null,
  hostBytesWritten: 1_000_000,
});
const generatedAt = new Date('2026-12-01T10:00:00Z');

const tableOf = (charts: Array<{ id: string }>) => charts.find((c) => c.id === 'drive-counters') as TableChartModel | undefined;

test("the table: the drive's count beside the host's, write amplification not read in a run kept before it was, a run without counters says why", () => {
  const chart = tableOf(buildCompareView([sataRun, nvmeRun], 'MB').charts);
  assert.ok(chart, 'Compare has the table');
  const [sata, ssd] = chart.groups[0]!.rows;
  assert.deepEqual(
    ssd!.cells.map((c) => c.display),
    ['511.7\u00a0MB', '512.0\u00a0MB (1,000 units)', 'not read', '3 % → 4 %'],
  );
  assert.equal(ssd!.title, '#2 new NVMe');
  assert.match(ssd!.cells[1]!.basis!, /512,000,000 B: the drive's SMART \/ health log, Data Units Written after the run minus before/);
  // The host's count is the kernel's, kept for any disk; only the drive's own is missing, and why.
  assert.deepEqual(
    sata!.cells.map((c) => c.display),
    ['1.0\u00a0MB', 'not read: sda is a SATA disk: its attributes are not read yet', '—', '—'],
  );
  assert.ok(
    chart.groups[0]!.rows.every((r) => !r.emphasis),
    'no row sums up the others: none in bold',
  );
  assert.ok(
    chart.groups[0]!.notes.some((n) =>
      /^Write amplification of #2, not read: this run was kept before DiskDelta read the flash's own writes/.test(n),
    ),
    chart.groups[0]!.notes.join('\n'),
  );
  // Runs with no counters from before and after: no table.
  assert.equal(tableOf(buildCompareView([sataRun, run('imported', undefined)], 'MB').charts), undefined);
});

test('the app shows the table and the report prints it', async () => {
  const view = buildCompareView([sataRun, nvmeRun], 'MB');
  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['old SATA', 'new NVMe'], scale: 'auto' }));
  try {
    const section = app.container.querySelector('[data-chart-id="drive-counters"]');
    assert.ok(section, 'the app draws it');
    assert.match(section.querySelector('h2')?.textContent ?? '', /a table: each run's counts from before and after it/);
    assert.equal(section.querySelectorAll('tr.emphasis').length, 0);
    const row = section.querySelector('tr[data-row="#2 new NVMe"]');
    assert.match(row?.textContent ?? '', /511\.7\u00a0MB.*512\.0\u00a0MB \(1,000 units\).*not read/);
  } finally {
    await app.unmount();
  }
  const html = renderReportHtml(buildReport([nvmeRun], { generatedAt }));
  const at = html.indexOf('data-chart-type="drive-counters"');
  assert.ok(at >= 0, 'the report prints it for a single run');
  const figure = html.slice(at, html.indexOf('</figure>', at));
  assert.match(figure, /512\.0\u00a0MB \(1,000 units\)/);
  assert.match(figure, /Write amplification of #1, not read/);
  // Its headings in the table's size inside the app's report route too (the app's thead th is 0.85rem:
  // "write amplification" broke into "amplificatio / n" there).
  assert.match(html, /\.report table\.figures thead th \{[^}]*font-size: inherit;/);
  // Its notes in the size of a chart's note, not the body's (they printed larger than the table).
  assert.match(html, /\.report figure\.chart \.chart-table-group ul\.notes \{ font-size: 8pt;/);
});

test("a SATA drive's row: attribute 241's count with its unit, and write amplification said in SATA's terms, not NVMe's", () => {
  const ata = (lbas: number): DriveHealth => ({
    disk: 'sdb',
    protocol: 'ata',
    model: 'an SSD',
    smartPassed: true,
    temperatureC: 30,
    powerOnHours: 1,
    powerCycles: 1,
    bytesWritten: lbas * 512,
    bytesRead: 0,
    writeUnitBytes: 512,
    percentageUsed: 2,
    wearAttribute: '177 Wear_Leveling_Count',
    mediaErrors: 0,
    reallocatedSectors: 0,
    pendingSectors: 0,
    offlineUncorrectable: 0,
    attributes: [],
  });
  const sataSsd = run('SATA SSD', { before: ata(1000), after: ata(33_768), hostBytesWritten: 16_777_216 });
  const chart = tableOf(buildCompareView([sataSsd, nvmeRun], 'MB').charts)!;
  const [sata] = chart.groups[0]!.rows;
  assert.equal(sata!.cells[1]!.display, '16.8\u00a0MB (32,768 units of 512 B)');
  assert.match(sata!.cells[2]!.basis ?? '', /attribute 241 counts the host's writes/);
  const notes = chart.groups[0]!.notes.join('\n');
  assert.match(notes, /^Write amplification of #1, not read: its SMART attribute 241/m, notes);
  assert.match(notes, /^Write amplification of #2, not read: this run was kept before/m, notes);
});

const GB = 1e9;
const eg = (units: number): MediaWrites => ({ source: 'endurance-group', bytes: units * GB, unitBytes: GB });

test("one wording of why no write amplification: the run's text and the table's note agree, for each reason", () => {
  const noPages: MediaWrites = {
    source: null,
    reason:
      'C0h: Get Log Page C0h: the drive answered status 0x4109; 09h: the controller reports no endurance groups (Identify Controller CTRATT bit 4 clear)',
  };
  const drives = {
    SATA: { before: ataReading(512), after: ataReading(1024), hostBytesWritten: 512 },
    'NVMe kept before': { before: nvme(1, 0), after: nvme(2, 0), hostBytesWritten: 512_000 },
    'NVMe without the pages': { before: nvme(1, 0, noPages), after: nvme(2, 0, noPages), hostBytesWritten: 512_000 },
    'NVMe, a short run': { before: nvme(1, 0, eg(3)), after: nvme(34, 0, eg(3)), hostBytesWritten: 16_781_312 },
  };
  const records = Object.values(drives).map((d, i) => run(`r${i}`, d));
  const notes = tableOf(buildCompareView(records, 'MB').charts)!.groups[0]!.notes;
  Object.entries(drives).forEach(([kind, drive], i) => {
    const inText = /write amplification: (not read|not reported|not judged) \((.*)\)$/.exec(driveWrittenText(drive));
    const note = notes.map((n) => new RegExp(`^Write amplification of #${i + 1}, (.*?): (.*)\\.$`).exec(n)).find(Boolean);
    assert.ok(inText && note, `${kind}: both say it (${inText?.[0]} / ${notes.join(' | ')})`);
    assert.deepEqual([note[1], note[2]], [inText[1], inText[2]], kind);
  });
  assert.match(
    notes.join('\n'),
    /#3, not reported: this drive reports no count of its flash's own writes: C0h: Get Log Page C0h: the drive answered status 0x4109/,
  );
  assert.match(
    notes.join('\n'),
    /#4, not judged: the drive counts its flash's writes in the endurance-group log \(09h\), in units of 1,000,000,000 B, and this run wrote 16,896,000 B, under 10 of those units/,
  );
});

test("write amplification where the drive counts its flash's writes: the ratio with the range its units allow, in the table and the run's text", () => {
  // 40,000 data units (20.48 GB) from the host, 25 endurance-group units (25 GB) to the flash.
  const drive = { before: nvme(1_000, 3, eg(100)), after: nvme(41_000, 4, eg(125)), hostBytesWritten: 20_480_000_000 };
  const chart = tableOf(buildCompareView([run('steady', drive)], 'MB').charts)!;
  const cell = chart.groups[0]!.rows[0]!.cells[2]!;
  // 25 / 20.48 = 1.22; 24 / 20.480512 = 1.17; 26 / 20.479488 = 1.27.
  assert.equal(cell.display, '×1.22 (×1.17–×1.27)');
  assert.match(
    cell.basis!,
    /^the flash wrote 25,000,000,000 B by the endurance-group log \(09h\), in units of 1,000,000,000 B, for the 20,480,000,000 B the drive took from the host/,
  );
  assert.ok(!chart.groups[0]!.notes.some((n) => /^Write amplification of/.test(n)), 'a judged ratio needs no note');
  assert.match(driveWrittenText(drive), /; write amplification ×1\.22 \(×1\.17–×1\.27: the flash wrote 25,000,000,000 B/);
  // OCP's C0h counts in bytes: a 16.9 MB run is judged, to its data units' rounding.
  const ocp = (bytes: number): MediaWrites => ({ source: 'ocp-c0', bytes, unitBytes: 1 });
  const small = { before: nvme(1, 0, ocp(1_000)), after: nvme(34, 0, ocp(1_000 + 20_275_200)), hostBytesWritten: 16_781_312 };
  assert.match(
    driveWrittenText(small),
    /write amplification ×1\.20 \(×1\.16–×1\.24: the flash wrote 20,275,200 B by OCP's C0h page, in units of 1 B/,
  );
  // Readings from two different pages are not set against each other.
  const mixed = { before: nvme(1, 0, ocp(1_000)), after: nvme(41_000, 0, eg(30)), hostBytesWritten: 20_480_000_000 };
  assert.match(
    driveWrittenText(mixed),
    /write amplification: not judged \(the readings before and after the run came from different pages\)/,
  );
});

test('a SATA reading whose count has no unit (a stored run): no count from it, not bytes ÷ 0', () => {
  for (const [before, after] of [
    [ataReading(512, null), ataReading(1024, null)],
    [ataReading(512, 512), ataReading(2 ** 25, 2 ** 25)],
  ] as const) {
    const drive = { before, after, hostBytesWritten: 512 };
    assert.equal(bytesWrittenDuring(drive), null, `units ${before.writeUnitBytes} → ${after.writeUnitBytes}`);
    const chart = tableOf(buildCompareView([run('unitless', drive), nvmeRun], 'MB').charts)!;
    const row = chart.groups[0]!.rows[0]!;
    assert.equal(row.cells[1]!.display, 'read, but this drive keeps no write counter (SMART attribute 241)');
    assert.doesNotMatch(driveWrittenText(drive), /Infinity|NaN|units of 0 B/);
  }
  assert.doesNotMatch(
    healthLines(ataReading(512, null))
      .map(([, v]) => v)
      .join('\n'),
    /units of 0 B/,
  );
});
