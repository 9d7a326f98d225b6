// The chart registry end to end: a chart type added through the registry alone is drawn by
// the app's chart view and printed in the report; a block-size sweep is one chart in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RunRecord, TestResult } from '../../../electron/shared/model/results.ts';
import { bytesPerSecTo } from '../../../electron/shared/analysis/units.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import type { SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { ReportChartView } from '../../../electron/shared/report/report-chart.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { ChartGrid, ChartView } from './chart-view.ts';
import { draw } from './dom.ts';

function result(test: string, rw: 'read' | 'write', blockSize: number, bytesPerSec: number): TestResult {
  return {
    test,
    params: { rw, blockSize, queueDepth: 4, threads: 1 },
    bytesPerSec,
    iops: bytesPerSec / blockSize,
    latencyNs: null,
    best: null,
    cv: null,
    runs: [],
    histogram: [],
    cpu: null,
    underResolved: false,
    warnings: [],
  };
}

function run(label: string, results: TestResult[]): RunRecord {
  return {
    label,
    notes: '',
    createdAt: '2026-12-01T10:00:00.000Z',
    source: 'imported',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/x', kind: 'folder' },
    settings: {},
    engine: { name: 'test', version: '0' },
    results,
    extras: [],
    warnings: [],
  };
}

/** ATTO's sizes: 512 B to 64 MiB, every power of two (18 sizes). */
const ATTO_SIZES = Array.from({ length: 18 }, (_, i) => 512 * 2 ** i);
const atto = (label: string, factor: number) =>
  run(
    label,
    ATTO_SIZES.map((bs) => result(`atto-read-${bs}`, 'read', bs, factor * Math.min(500e6, bs * 2000))),
  );

const generatedAt = new Date('2026-12-01T10:00:00Z');

test('a chart type added through the registry alone is drawn by the app view and the report SVG, and gone when removed', async () => {
  const records = [atto('old disk', 1), atto('new disk', 3)];
  // A throwaway "curve over cache size": each run's throughput against the block size, as if
  // the block were a cache; it names no test, the page and the printer know nothing of it.
  const remove = CHARTS.register({
    id: 'throwaway-curve',
    draws: 'a throwaway curve over size, for this test',
    inReport: true,
    build: ({ records: rs, unit }): SeriesChartModel[] => [
      {
        shape: 'series',
        id: 'throwaway-curve',
        type: 'throwaway-curve',
        title: 'Throwaway curve',
        unitLabel: 'MB/s',
        direction: 'higher',
        valueFormat: 'number',
        markers: true,
        x: { label: 'cache size', format: 'bytes', scale: 'log2' },
        lines: rs.map((r, runIndex) => ({
          runIndex,
          points: r.results.slice(0, 5).map((t) => ({ x: t.params!.blockSize, y: bytesPerSecTo(t.bytesPerSec!, unit) })),
        })),
      },
    ],
  });
  try {
    const view = buildCompareView(records, 'MB');
    const labels = records.map((r) => r.label);
    const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels, scale: 'auto' }));
    try {
      const section = app.container.querySelector('[data-testid="series-throwaway-curve"]');
      assert.ok(section, 'the app draws the throwaway chart');
      assert.match(section.textContent ?? '', /Throwaway curve/);
      assert.equal(section.querySelectorAll('path.plot-line').length, 2, 'one line per run');
    } finally {
      await app.unmount();
    }
    const doc = buildReport(records, { generatedAt });
    assert.ok(doc.charts.some((c) => c.type === 'throwaway-curve'));
    const html = renderReportHtml(doc);
    const figure = html.slice(html.indexOf('data-chart-type="throwaway-curve"'));
    assert.ok(html.includes('data-chart-type="throwaway-curve"'), 'the report prints it');
    assert.equal(figure.slice(0, figure.indexOf('</figure>')).match(/data-testid="series-line"/g)?.length, 2);
  } finally {
    remove();
  }
  assert.ok(!buildReport(records, { generatedAt }).charts.some((c) => c.type === 'throwaway-curve'), 'removed with its entry');
  assert.equal(
    buildCompareView(records, 'MB').charts.some((c) => c.type === 'throwaway-curve'),
    false,
  );
});

test('an ATTO-style sweep of 18 block sizes is one chart with a line per run, in the app and in the report', async () => {
  const records = [atto('old disk', 1), atto('new disk', 3)];
  const view = buildCompareView(records, 'MB');
  const sweeps = view.charts.filter((c) => c.type === 'block-size-sweep');
  assert.equal(sweeps.length, 1);
  const sweep = sweeps[0] as SeriesChartModel;
  assert.equal(sweep.x.ticks?.length, 18);
  assert.deepEqual(
    sweep.lines.map((l) => l.points.length),
    [18, 18],
  );
  assert.ok(!view.charts.some((c) => c.type === 'throughput'), 'the swept tests are not drawn again as 18 bar categories');

  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['old disk', 'new disk'], scale: 'auto' }));
  try {
    const charts = app.container.querySelectorAll('section.chart');
    assert.equal(charts.length, 1, 'one chart on the page');
    assert.equal(charts[0]!.getAttribute('data-testid'), 'series-block-size-sweep');
    assert.equal(charts[0]!.querySelectorAll('path.plot-line').length, 2);
    assert.match(charts[0]!.textContent ?? '', /512 B/);
    assert.match(charts[0]!.textContent ?? '', /64 MiB/);
  } finally {
    await app.unmount();
  }

  const doc = buildReport(records, { generatedAt });
  assert.deepEqual(
    doc.charts.map((c) => c.type),
    ['block-size-sweep'],
  );
  const html = renderReportHtml(doc);
  assert.equal(html.match(/data-testid="report-chart"/g)?.length, 1, 'one chart in the PDF, not 36');
  assert.equal(html.match(/class="plot-point"/g)?.length, 36, '18 sizes × 2 runs as points');
  // Every figure is still in the report's table.
  assert.equal(doc.comparison.rows.filter((r) => r.kind === 'throughput').length, 18);
});

test('two block sizes of one pattern are single tests, drawn as bars; a chart type id is registered once', () => {
  const records = [0, 1].map((n) =>
    run(`run ${n}`, [result('a-4k', 'read', 4096, 1e8 * (n + 1)), result('a-1m', 'read', 1 << 20, 4e8 * (n + 1))]),
  );
  const view = buildCompareView(records, 'MB');
  assert.deepEqual(
    view.charts.map((c) => c.id),
    ['throughput'],
  );
  assert.throws(() => CHARTS.register({ id: 'throughput', draws: '', inReport: false, build: () => [] }), /already registered/);
});

test('the discard experiment’s runs: the seed’s 2×2 as a table in the app and in the report, one block per pair', async () => {
  const { loadReferenceRuns } = await import('../../../electron/node/formats/reference.ts');
  const records = (await loadReferenceRuns()).slice(3).map((r, i) => ({ ...r, id: 4 + i }));
  const view = buildCompareView(records, 'MB');
  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: records.map((r) => r.label), scale: 'auto' }));
  try {
    const section = app.container.querySelector('[data-testid="table-discard-table"]');
    assert.ok(section, 'the app draws the table');
    const cells = [...section.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    assert.deepEqual(cells, [
      ['no discard', '7.368 s', '0.710 s'],
      ['discard', '7.373 s', '2.697 s'],
      ['discard costs', '+0.005 s (×1.00)', '+1.987 s (×3.80)'],
      // The seed's second case: one 3 GB file deleted (published "about"; its write not timed).
      ['no discard', '— (not timed)', '0.430 s'],
      ['discard', '— (not timed)', '1.650 s'],
      ['discard costs', '— (needs both settings)', '+1.220 s (×3.84)'],
    ]);
  } finally {
    await app.unmount();
  }
  const html = renderReportHtml(buildReport(records, { generatedAt }));
  const figure = html.slice(html.indexOf('data-chart-type="discard-table"'));
  assert.ok(html.includes('data-chart-type="discard-table"'), 'the report prints it');
  // What discard costs sums up the rows above it: that row alone in bold (the rule was any last row's).
  assert.match(figure, /<tr data-row="discard costs" class="emphasis">/);
  assert.doesNotMatch(figure.slice(0, figure.indexOf('</figure>')), /<tr data-row="(without|with) discard[^"]*" class="emphasis">/);
  assert.match(
    figure.slice(0, figure.indexOf('</figure>')),
    /<th scope="row">discard costs<\/th><td>\+0\.005 s \(×1\.00\)<\/td><td>\+1\.987 s \(×3\.80\)<\/td>/,
  );
  assert.match(
    figure.slice(0, figure.indexOf('</figure>')),
    /Big file \(3 GB\)[^]*<th scope="row">discard costs<\/th><td>— \(needs both settings\)<\/td><td>\+1\.220 s \(×3\.84\)<\/td>/,
    "the report prints the big file's block too",
  );
});

test('every chart of the registry is named and has its figures as a table; lines differ by dash, not only by colour', async () => {
  const records = [atto('old disk', 1), atto('new disk', 3)];
  records.forEach((r) => r.results.push(result('seq1m-q8t1-read', 'read', 1 << 20, 4e8 * (r.label === 'old disk' ? 1 : 3))));
  const view = buildCompareView(records, 'MB');
  const labels = records.map((r) => r.label);
  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels, scale: 'auto' }));
  try {
    const sections = [...app.container.querySelectorAll('section.chart')];
    assert.ok(sections.length >= 2, `a bar chart and a line chart: ${sections.map((s) => s.getAttribute('data-testid')).join(', ')}`);
    // recharts made each chart an unnamed role="application" tab stop; none may come back.
    assert.equal(app.container.querySelectorAll('[role="application"]').length, 0, 'no chart is an unnamed application');
    for (const section of sections) {
      const id = section.getAttribute('data-testid');
      const drawing = section.querySelector('[role="img"]');
      assert.ok(drawing, `${id}: the drawing is an image`);
      const title = section.querySelector('h2')!.firstChild!.textContent!;
      assert.ok(drawing.getAttribute('aria-label')?.startsWith(title), `${id}: named "${drawing.getAttribute('aria-label')}"`);
      const table = section.querySelector('table');
      assert.ok(table, `${id}: its figures as a table`);
      assert.equal(table.querySelectorAll('tbody tr').length, id?.startsWith('bars') ? 1 : 2, `${id}: a row per category or per line`);
    }
    const bars = sections.find((s) => s.getAttribute('data-testid') === 'bars-throughput')!;
    assert.match(bars.querySelector('tbody')!.textContent!, /^sequential read 1M Q8T1400 MB\/s1,200 MB\/s \(×3\.00\)$/);
    const dashes = [...app.container.querySelectorAll('[data-testid="series-block-size-sweep"] path.plot-line')].map((p) =>
      p.getAttribute('stroke-dasharray'),
    );
    assert.equal(new Set(dashes).size, 2, `each line its own dash: ${dashes.join(' | ')}`);
  } finally {
    await app.unmount();
  }
});

/** A measured test as the worker stores it: `runs` windows of `windowMs`, a sample every 100 ms from the phase's start. */
function timed(label: string, runs: number, windowMs: number, bytesPerSec: number): RunRecord {
  const t = result('seq1m-q8t1-read', 'read', 1 << 20, bytesPerSec);
  t.runs = Array.from({ length: runs }, (_, r) => ({
    run: r + 1,
    bytesPerSec,
    iops: bytesPerSec / (1 << 20),
    latencyNs: { mean: 1e6, p50: 1e6, p90: null, p99: null, p999: null, max: null },
    elapsedNs: windowMs * 1e6,
    ios: 100,
    bytes: 100 << 20,
    cpu: { userNs: 0, systemNs: 0 },
    // The worker's sample times are since the run's own window began (50, 150 … ms).
    samples: Array.from({ length: Math.floor(windowMs / 100) }, (_, s) => ({ tMs: 50 + 100 * s, bytesPerSec, iops: 1 })),
  }));
  return run(label, [t]);
}

/** Where a path's first point sits across its plot, 0 … 1. */
const firstX = (d: string, left: number, width: number) => (Number(/^M\s*([\d.]+)/.exec(d)![1]) - left) / width;

test('throughput over time: every line is its test’s timed runs back to back, on one time axis from 0, alike in the app and the report', async () => {
  // An SSD's runs are 0.2 s windows; an HDD's grow to hold 64 I/Os (1.1 s): run 1 alone covered
  // 150 ms beside 1,050 ms, as if the SSD had been measured for a seventh of the time.
  const records = [timed('SSD', 6, 200, 500e6), timed('HDD', 5, 1100, 100e6)];
  const view = buildCompareView(records, 'MB');
  const chart = view.charts.find((c) => c.id === 'time-series:seq1m-q8t1-read') as SeriesChartModel;
  assert.ok(chart, 'a time series');
  assert.deepEqual(
    chart.lines.map((l) => [l.points.length, l.points[0]!.x, l.points.at(-1)!.x]),
    [
      [12, 50, 1150],
      [55, 50, 5450],
    ],
    'each line holds every run of its test, each run after the one before',
  );
  assert.deepEqual(chart.x.domain, [0, 5500], 'the axis runs from the timed start to the end of the longest test');
  assert.match(chart.note ?? '', /#1 SSD: 1\.2 s in 6 runs.*#2 HDD: 5\.5 s in 5 runs/);

  const labels = records.map((r) => r.label);
  const app = await draw(h(ChartView, { chart, labels, scale: 'auto' }));
  let appFraction: number;
  try {
    const section = app.container.querySelector('[data-chart-id="time-series:seq1m-q8t1-read"]')!;
    assert.ok(section, 'the app draws it');
    assert.match(section.textContent ?? '', /1\.2 s in 6 runs/, 'the app says how long each line measured');
    const axis = section.querySelector('[data-testid="x-axis"]')!;
    const [x1, x2] = [Number(axis.getAttribute('x1')), Number(axis.getAttribute('x2'))];
    appFraction = firstX(section.querySelector('path.plot-line')!.getAttribute('d')!, x1, x2 - x1);
  } finally {
    await app.unmount();
  }
  const report = renderToStaticMarkup(h(ReportChartView, { chart, labels }));
  assert.match(report, /1\.2 s in 6 runs/, 'the report says it too');
  const [x1, x2] = /<line x1="([\d.]+)" x2="([\d.]+)"[^>]*data-testid="x-axis"/.exec(report)!.slice(1).map(Number) as [number, number];
  const reportFraction = firstX(/<path d="([^"]+)"[^>]*data-testid="series-line"/.exec(report)![1]!, x1, x2 - x1);
  assert.ok(Math.abs(appFraction - 50 / 5500) < 0.002, `the app's first point at 50 ms of 5,500: ${appFraction}`);
  assert.ok(Math.abs(reportFraction - 50 / 5500) < 0.002, `the report's first point at 50 ms of 5,500: ${reportFraction}`);
});
