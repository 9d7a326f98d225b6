import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord, TestResult } from '../../../electron/shared/model/results.ts';
import {
  barRows,
  buildCompareView,
  chartDomain,
  labelLayout,
  labelRoomPx,
  wrapTickLabel,
  type CompareView,
} from '../../../electron/shared/charts/compare-view.ts';
import { chooseScale, logDomain } from '../../../electron/shared/charts/chart-scale.ts';
import type { BarChartModel, SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { downsample } from '../../../electron/shared/charts/series-charts.ts';
import { buildSpec, costPreview, formFields, presetDefaults, WORKLOAD_CHOICES } from './new-run-form.ts';
import { TEST_IDS, testById } from '../../../electron/shared/model/catalog.ts';
import { liveSeries, runAnnouncement } from './live-view.ts';
import type { LiveRun } from '../stores/runs.ts';
import { dayBoundary } from './date-filter.ts';

/** The app's chart of that id as recharts rows (bars) or the model itself (series). */
function barChart(view: CompareView, id: string) {
  const chart = view.charts.find((c) => c.id === id);
  assert.equal(chart?.shape, 'bars', `a bar chart '${id}' among ${view.charts.map((c) => c.id).join(', ')}`);
  return { ...(chart as BarChartModel), data: barRows(chart as BarChartModel) };
}
function seriesChart(view: CompareView, id: string): SeriesChartModel {
  const chart = view.charts.find((c) => c.id === id);
  assert.equal(chart?.shape, 'series', `a series chart '${id}' among ${view.charts.map((c) => c.id).join(', ')}`);
  return chart as SeriesChartModel;
}

function result(test: string, bytesPerSec: number, iops: number, samples = 0): TestResult {
  const lat = { mean: 1e6, p50: 9e5, p90: 2e6, p99: 5e6, p999: 8e6, max: 9e6 };
  return {
    test,
    params: null,
    bytesPerSec,
    iops,
    latencyNs: lat,
    best: null,
    cv: null,
    runs: [
      {
        run: 1,
        bytesPerSec,
        iops,
        latencyNs: lat,
        elapsedNs: 1e9,
        ios: 1,
        bytes: 1,
        cpu: { userNs: 0, systemNs: 0 },
        samples: Array.from({ length: samples }, (_, i) => ({ tMs: i * 100, bytesPerSec, iops })),
      },
    ],
    histogram: [],
    cpu: null,
    underResolved: false,
    warnings: test === 'seeks' ? [{ code: 'noisy', message: 'spread is high' }] : [],
  };
}

function record(label: string, factor: number): RunRecord {
  return {
    label,
    notes: '',
    createdAt: '2026-01-01T00:00:00Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/x', kind: 'folder' },
    settings: {},
    engine: { name: 'diskdelta', version: '0' },
    results: [
      result('seq1m-q8t1-read', 100e6 * factor, 100 * factor, 5),
      result('seq1m-q8t1-write', 50e6 * factor, 50 * factor),
      result('rnd4k-q1t1-read', 4e6 * factor, 1000 * factor),
      result('seeks', 1e6 * factor, 150 * factor),
    ],
    extras: [],
    warnings: [],
  };
}

test('compare view: sequential bars in the chosen unit, random IOPS and seeks, speed-ups and warnings per run', () => {
  const view = buildCompareView([record('HDD', 1), record('SSD', 3.3)], 'MB');
  assert.deepEqual(
    view.charts.filter((c) => c.shape === 'bars' && c.type !== 'latency').map((c) => c.id),
    ['throughput', 'iops'],
  );
  const seq = barChart(view, 'throughput');
  const iops = barChart(view, 'iops');
  assert.deepEqual(
    seq!.data.map((d) => [d.test, d.r0, Math.round(d.r1! * 10) / 10]),
    [
      ['seq1m-q8t1-read', 100, 330],
      ['seq1m-q8t1-write', 50, 165],
    ],
  );
  assert.deepEqual(
    iops!.data.map((d) => d.test),
    ['rnd4k-q1t1-read', 'seeks'],
  );
  const ratios = view.speedups.flatMap((r) => r.cells.map((c) => c.vsBaseline?.ratioText).filter(Boolean));
  assert.ok(
    ratios.every((r) => r === '×3.30'),
    ratios.join(' '),
  );
  assert.equal(view.warnings[1]!.warnings[0]!.test, 'seeks');
  assert.deepEqual(
    view.charts.filter((c) => c.type === 'time-series').map((c) => c.id),
    ['time-series:seq1m-q8t1-read'],
  );
  const kib = buildCompareView([record('HDD', 1), record('SSD', 2)], 'KB');
  assert.equal(barChart(kib, 'throughput').unitLabel, 'KiB/s');
  assert.equal(Math.round(barChart(kib, 'throughput').data[0]!.r0!), Math.round(100e6 / 1024));
});

test('series, percentiles and log domain', () => {
  const records = [record('A', 1), record('B', 2)];
  const series = seriesChart(buildCompareView(records, 'MiB'), 'time-series:seq1m-q8t1-read').lines;
  assert.equal(series.length, 2);
  assert.equal(series[1]!.points.length, 5);
  assert.ok(Math.abs(series[1]!.points[0]!.y - 200e6 / 2 ** 20) < 1e-9);
  const p = barChart(buildCompareView(records, 'MB'), 'latency:seeks').data;
  assert.deepEqual(
    p.map((r) => r.title),
    // The mean beside the percentiles, as fio and KDiskMark print it (issue #40, item 7).
    ['p50', 'mean', 'p90', 'p99', 'p99.9'],
  );
  assert.equal(p[0]!.r0, 900);
  assert.deepEqual(logDomain([{ r0: 151.4, r1: 10524 }], ['r0', 'r1']), [100, 100000]);
  assert.deepEqual(logDomain([{ r0: undefined }], ['r0']), [1, 10]);
});

test('new run form: friendly messages for bad fields, a valid spec otherwise', () => {
  const base = { target: '/mnt/ssd', preset: 'quick' as const, fields: {}, label: '' };
  assert.match(String(buildSpec({ ...base, target: '' })), /Choose the folder/);
  assert.match(String(buildSpec({ ...base, target: 'relative' })), /absolute/);
  assert.match(String(buildSpec({ ...base, fields: { sizeBytes: '8' } })), /at least 16/);
  assert.match(String(buildSpec({ ...base, fields: { durationSec: '0.1' } })), /0.2/);
  assert.deepEqual(buildSpec({ ...base, fields: { sizeBytes: '16', durationSec: '0.3', runs: '1' }, label: ' SSD ' }), {
    target: '/mnt/ssd',
    preset: 'quick',
    sizeBytes: 16 * 1024 * 1024,
    durationSec: 0.3,
    runs: 1,
    label: 'SSD',
  });
  // Read-only: "write nothing" becomes --read-only; with the encryption run (which writes a test file) it is refused.
  assert.deepEqual(buildSpec({ ...base, target: '/dev/sdb', readOnly: true }), { target: '/dev/sdb', preset: 'quick', readOnly: true });
  assert.match(String(buildSpec({ ...base, readOnly: true, encryption: true })), /Read-only: measuring encryption writes a test file/);
  // Encryption measures rate tests: a preset of workloads, the sustained write or a surface scan is refused naming itself.
  for (const preset of ['surface', 'workloads', 'sustained'] as const)
    assert.match(String(buildSpec({ ...base, preset, encryption: true })), new RegExp(`^Encryption: .*the ${preset} preset has none`));
  assert.equal(buildSpec({ ...base, preset: 'surface', target: '/dev/sdb' }).constructor, Object, 'the surface preset alone is a spec');
  // Workloads one by one: the preset's own pick stays the preset; another pick names its tests; none is refused.
  const w = { ...base, preset: 'workloads' as const };
  assert.deepEqual(buildSpec({ ...w, workloads: ['app-start', 'bigfile', 'tree-3.9.1'] }), { target: '/mnt/ssd', preset: 'workloads' });
  assert.deepEqual(buildSpec({ ...w, workloads: ['bigfile', 'tree'] }), {
    target: '/mnt/ssd',
    preset: 'workloads',
    tests: ['tree', 'bigfile'],
  });
  assert.match(String(buildSpec({ ...w, workloads: [] })), /pick at least one/);
  assert.equal(presetDefaults('workloads').sizeBytes, '2861', 'the field shows whole MiB');
  // Your tarball: its absolute path is asked for and carried in the spec.
  assert.match(String(buildSpec({ ...w, workloads: ['tarball'] })), /^Tarball: the absolute path of a \.tar/);
  assert.match(String(buildSpec({ ...w, workloads: ['tarball'], tarball: 'l.tar' })), /^Tarball: the absolute path/);
  assert.deepEqual(buildSpec({ ...w, workloads: ['tree', 'tarball'], tarball: ' /srv/linux-3.9.1.tar.xz ' }), {
    target: '/mnt/ssd',
    preset: 'workloads',
    tests: ['tree', 'tarball'],
    tarball: '/srv/linux-3.9.1.tar.xz',
  });
  // Every catalog workload is offered, none twice.
  assert.deepEqual(
    WORKLOAD_CHOICES.map((c) => c.id),
    TEST_IDS.filter((id) => testById(id)?.kind === 'workload'),
  );
  for (const c of WORKLOAD_CHOICES) assert.equal(testById(c.id)?.kind, 'workload', `${c.id} is a catalog workload`);
});

test('new run form, the sustained preset: its own fields, the cost before it starts as the span is typed, the spec it sends', () => {
  const keys = (preset?: 'sustained' | 'quick' | 'workloads') => formFields(undefined, preset).map((f) => f.key);
  assert.deepEqual(keys('sustained'), [
    'sustainedSpanBytes',
    'sustainedBlockBytes',
    'sustainedDepth',
    'sustainedRestSec',
    'sustainedRecoveryBytes',
    'ratedEnduranceBytes',
  ]);
  // The rate presets keep theirs, and show none of the sustained write's.
  assert.deepEqual(keys('quick'), ['sizeBytes', 'durationSec', 'runs']);
  assert.deepEqual(keys('workloads'), ['sizeBytes', 'runs']);
  const d = presetDefaults('sustained');
  assert.deepEqual([d.sustainedSpanBytes, d.sustainedBlockBytes, d.ratedEnduranceBytes], ['16384', '1024', 'not known, e.g. 600']);

  const base = { target: '/mnt/ssd', preset: 'sustained' as const, fields: {}, label: '' };
  // The defaults: 16 GiB, then 4 GiB again after 30 s; the rating not known, and how to give it here (no CLI flag).
  assert.equal(
    costPreview(base),
    "the sustained write writes 17 GB, rests 30 s and writes 4.3 GB again: about 73 s at 500 MB/s, 7 min 39 s at 50 MB/s. 21 GB counts against the drive's rated write endurance; what share of it is not known (a drive does not tell the kernel its rating): type the TBW of the drive's data sheet into Rated endurance. Stopping it keeps what it measured so far",
  );
  const typed = {
    ...base,
    fields: { sustainedSpanBytes: '128', sustainedRecoveryBytes: '64', sustainedRestSec: '1', ratedEnduranceBytes: '600' },
  };
  assert.match(
    costPreview(typed)!,
    /^the sustained write writes 134 MB, rests 1 s and writes 67 MB again: .* 201 MB is 0\.000034 % of the drive's rated write endurance of 600 TB\./,
  );
  assert.equal(costPreview({ ...typed, fields: { sustainedSpanBytes: '8' } }), null, 'no cost of a span the form refuses');
  assert.equal(costPreview({ ...base, preset: 'quick' }), null);
  // Steady state says what it writes too: the file, then at most 25 rounds, at the preset's timing or the typed one.
  assert.match(
    costPreview({ ...base, preset: 'steady', fields: {} })!,
    /^steady state writes the 1\.1 GB test file whole, then up to 25 rounds of 5 s after 5 s of warm-up per test/,
  );
  assert.deepEqual(buildSpec(typed), {
    target: '/mnt/ssd',
    preset: 'sustained',
    sustainedSpanBytes: 128 * 2 ** 20,
    sustainedRestSec: 1,
    sustainedRecoveryBytes: 64 * 2 ** 20,
    ratedEnduranceBytes: 600e12,
  });
  // A field typed under another preset and hidden since is not sent.
  assert.deepEqual(buildSpec({ ...base, fields: { durationSec: '3' } }), { target: '/mnt/ssd', preset: 'sustained' });
  assert.match(
    String(buildSpec({ ...base, fields: { sustainedSpanBytes: '32' } })),
    /^Bytes to write \(MiB\): a whole number of at least 64/,
  );
});

test('live series: one line per test, later runs continue where the previous ended', () => {
  const s = liveSeries([
    { test: 'seq1m-q8t1-read', run: 1, tMs: 100, bytesPerSec: 1e8, iops: 1 },
    { test: 'seq1m-q8t1-read', run: 1, tMs: 200, bytesPerSec: 2e8, iops: 1 },
    { test: 'seq1m-q8t1-read', run: 2, tMs: 100, bytesPerSec: 3e8, iops: 1 },
    { test: 'rnd4k-q1t1-read', run: 1, tMs: 100, bytesPerSec: 4e6, iops: 1 },
  ]);
  assert.equal(s.length, 2);
  assert.deepEqual(s[0]!.points, [
    { tSec: 0.1, mbps: 100 },
    { tSec: 0.2, mbps: 200 },
    { tSec: 0.3, mbps: 300 },
  ]);
});

test("downsampling keeps each bucket's extremes in time order and at most the limit", async () => {
  const samples = Array.from({ length: 600 }, (_, i) => ({ tMs: i * 100, bytesPerSec: i === 301 ? 9e9 : i === 450 ? 1 : 1e8 + i }));
  const out = downsample(samples, 300);
  assert.ok(out.length <= 300);
  assert.ok(out.some((s) => s.bytesPerSec === 9e9) && out.some((s) => s.bytesPerSec === 1), 'spike and dip kept');
  assert.deepEqual(
    out.map((s) => s.tMs),
    [...out.map((s) => s.tMs)].sort((a, b) => a - b),
  );
  assert.equal(downsample(samples.slice(0, 10), 300).length, 10);
});

test('library date filter: a day as an ISO bound; a date no Date can hold filters nothing instead of throwing', () => {
  assert.equal(dayBoundary('', false), undefined);
  assert.equal(new Date(dayBoundary('2026-01-31', false)!).getDate(), 31);
  assert.equal(new Date(dayBoundary('2026-01-31', true)!).getHours(), 23);
  assert.equal(dayBoundary('275760-12-31', true), undefined);
  assert.equal(dayBoundary('2026-13-01', false), undefined);
});

test('scale from the data: HDD 42 MB/s beside SSD 6,332 MB/s goes logarithmic in auto, and says why', () => {
  const hddSsd = [
    { r0: 42, r1: 6332 },
    { r0: 40, r1: 2100 },
  ];
  assert.deepEqual(chooseScale(hddSsd, ['r0', 'r1'], 'auto'), { log: true, note: 'log scale: values span ×158' });
  assert.deepEqual(chooseScale([{ r0: 100, r1: 330 }], ['r0', 'r1'], 'auto'), { log: false, note: 'linear scale' });
  assert.equal(chooseScale(hddSsd, ['r0', 'r1'], 'linear').note, 'linear scale: values span ×158, small bars may not show');
  assert.equal(chooseScale([{ r0: 100, r1: 330 }], ['r0', 'r1'], 'log').log, true);
  // On the chosen log axis the smallest bar is at least a tenth of the plot's height.
  const [low, high] = chartDomain(hddSsd, ['r0', 'r1'], true, 0.2);
  assert.ok(Math.log10(40 / low) / Math.log10(high / low) >= 0.1, `[${low}, ${high}]`);
  assert.ok(high >= 6332, 'the tallest bar fits');
  const [, top] = chartDomain([{ r0: 100 }], ['r0'], false, 0.25);
  assert.equal(top, 100 / 0.75, 'a quarter of the linear plot is left free for the label');
});

test('bar labels: value and ratio on one line, value over ratio, or sideways over a narrow bar', () => {
  const view = buildCompareView([record('HDD', 1), record('SSD', 3.3)], 'MB');
  assert.deepEqual(barChart(view, 'throughput').data[0]!.labels, [{ value: '100' }, { value: '330', ratio: '×3.30' }]);
  const latency = barChart(
    buildCompareView(
      [record('HDD', 1), record('SSD', 1)].map((r, i) =>
        i === 1 ? { ...r, results: r.results.map((t) => ({ ...t, latencyNs: { ...t.latencyNs!, p50: 4.61e3 } })) } : r,
      ),
      'MB',
    ),
    'latency:seeks',
  ).data;
  assert.deepEqual(latency[0]!.labels, [{ value: '900 µs' }, { value: '4.61 µs', ratio: '195× lower' }]);
  assert.equal(labelLayout({ value: '631.1', ratio: '×15.3' }, 80), 'line');
  assert.equal(labelLayout({ value: '631.1', ratio: '×15.3' }, 40), 'two-lines');
  assert.equal(labelLayout({ value: '13,206', ratio: '×85.0' }, 20), 'sideways');
  const seqRows = barChart(view, 'throughput').data;
  assert.ok(labelRoomPx(seqRows, 20) > labelRoomPx(seqRows, 200), 'sideways labels need more room');
});

test('axis labels wrap to their share of the axis, whole words, at most three lines', () => {
  assert.deepEqual(wrapTickLabel('sequential read 1M Q8T1', 100), ['sequential read', '1M Q8T1']);
  assert.deepEqual(wrapTickLabel('sequential read 1M Q8T1', 400), ['sequential read 1M Q8T1']);
  assert.deepEqual(wrapTickLabel('random 70 % read mix 4K Q8T1', 40), ['random', '70 %', 'read…']);
  for (const width of [30, 60, 90, 130]) {
    for (const line of wrapTickLabel('random write 4K Q32T1', width)) {
      assert.ok(line.length * 6.2 <= Math.max(width, 'random'.length * 6.2) + 1e-9, `${line} fits ${width} px`);
    }
  }
});

test('compare view: workload phases as seconds bars beside the Intel 525 reference runs, lower is better, ranges kept', async () => {
  const { loadReferenceRuns } = await import('../../../electron/node/formats/reference.ts');
  const { phaseFigures } = await import('../../../electron/node/bench/kinds/workload.ts');
  const intel = (await loadReferenceRuns()).filter((r) => r.label.startsWith('Intel 525'));
  assert.equal(intel.length, 2, 'the two Intel 525 reference runs (without and with discard)');
  // A measured run's figures as the kind makes them from the worker's passes (a warm-up left out).
  const pass = (phase: string, run: number, seconds: number, warmup = false) =>
    ({ type: 'phase', workload: 'bigfile', phase, run, warmup, seconds, files: 1, bytes: 1 }) as Parameters<typeof phaseFigures>[0][number];
  const figures = phaseFigures(
    [
      pass('write', 0, 9, true),
      pass('delete', 0, 9, true),
      pass('write', 1, 2),
      pass('delete', 1, 0.2),
      pass('write', 2, 3),
      pass('delete', 2, 0.4),
    ],
    null,
  );
  const measured: RunRecord = {
    ...record('this disk', 1),
    results: [{ ...result('bigfile', 0, 0), bytesPerSec: null, iops: null, latencyNs: null, runs: [], figures }],
  };
  const view = buildCompareView([measured, ...intel], 'MB');
  const group = barChart(view, 'workload');
  assert.equal(group.unitLabel, 's');
  assert.equal(group.direction, 'lower');
  const del = group.data.find((d) => d.test === 'bigfile' && d.title.endsWith('delete + sync'));
  assert.ok(del, `a bigfile delete category among ${group.data.map((d) => d.title).join(', ')}`);
  // All three runs have a bar: the measured one and both references (0.43 s and 1.65 s as published).
  assert.ok(Math.abs(del.r0! - 0.3) < 1e-9, `measured median ${del.r0}`);
  assert.deepEqual([del.r1, del.r2], [0.43, 1.65]);
  assert.deepEqual(del.labels[0], { value: '0.300 s' });
  assert.equal(del.labels[1]?.ratio, '×1.43', 'a slower reference reads as a ratio above 1');
  assert.match(del.bases?.[0] ?? '', /median of 2 runs \(0\.20 s–0\.40 s\)/, 'the range of the passes is kept');
  // The reference tree has write and delete; the measured run has no tree, so its bar is missing, not zero.
  const treeWrite = group.data.find((d) => d.test === 'tree-3.9.1' && d.title.endsWith('write + sync'));
  assert.ok(treeWrite);
  assert.equal(treeWrite.r0, undefined);
  assert.deepEqual([treeWrite.r1, treeWrite.r2], [7.368, 7.373]);
  assert.equal(treeWrite.labels[2]?.ratio, undefined, 'no ratio against a baseline without that figure');
});

test('the live region announces a change of test or phase, not every percent, and how the run ended', () => {
  const run = (status: LiveRun['status'], test: string, testIndex: number, phase: 'warmup' | 'measure', fraction: number): LiveRun => ({
    runId: 'r',
    spec: { target: '/tmp' },
    startedAt: '2026-01-01T00:00:00Z',
    status,
    progress: { test, testIndex, testCount: 4, phase, run: 1, runs: 3, fraction, etaSec: 10 },
    tests: [],
    samples: [],
    warnings: [],
    recordId: null,
    error: null,
  });
  // 101 progress events through one test's measurement: one announcement, not 101.
  const said = new Set<string>();
  for (let i = 0; i <= 100; i++) said.add(runAnnouncement(run('running', 'seq1m-q8t1-read', 0, 'measure', i / 400)));
  assert.equal(said.size, 1);
  const [only] = said;
  assert.doesNotMatch(only!, /%|\d+ s\b/);
  assert.equal(only, 'sequential read 1M Q8T1 (test 1 of 4) · measure, run 1 of 3');
  assert.notEqual(runAnnouncement(run('running', 'seq1m-q8t1-read', 0, 'warmup', 0)), only);
  assert.notEqual(runAnnouncement(run('running', 'seq1m-q8t1-write', 1, 'measure', 0.3)), only);
  assert.equal(runAnnouncement(run('cancelled', 'seq1m-q8t1-read', 0, 'measure', 0.1)), 'Run cancelled');
  assert.equal(runAnnouncement(run('done', 'seq1m-q8t1-read', 3, 'measure', 1)), 'Run finished');
});
