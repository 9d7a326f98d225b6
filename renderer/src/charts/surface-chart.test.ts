// A disk's surface chart through the registry (issue 41 item 3): the old disk's curve beside the
// new disk's in Compare and in the report, x the share of each disk (outer 0 % to inner 100 %),
// each run's slowest zone shaded and named under the chart; the result is not drawn again as a bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import type { SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { resultWithoutRuns, measuredRecord } from '../../../electron/shared/model/result-builders.ts';
import { surfaceFigures, SURFACE_TEST, type SurfaceRead } from '../../../electron/shared/analysis/surface.ts';
import { runKind } from '../../../electron/shared/model/run-kind.ts';
import { ChartGrid } from './chart-view.ts';
import { draw } from './dom.ts';

const MB = 1e6;
const GB = 1e9;

/** 40 samples of 4 MB over `device` bytes, each at speedAt(its offset). */
function reads(device: number, speedAt: (x: number) => number): SurfaceRead[] {
  const bytes = 4 * 2 ** 20;
  return Array.from({ length: 40 }, (_, i) => {
    const offset = Math.floor(((device - bytes) * i) / 39 / 4096) * 4096;
    return { offset, bytes, readNs: [(bytes / speedAt(offset)) * 1e9] };
  });
}

function run(label: string, device: number, speedAt: (x: number) => number): RunRecord {
  return measuredRecord({
    label,
    target: { path: '/dev/sdb', kind: 'block-device' },
    results: [
      resultWithoutRuns({
        test: SURFACE_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        warnings: [],
        figures: surfaceFigures(reads(device, speedAt), [8e6, 9e6, 12e6], device),
      }),
    ],
  });
}

// The old HDD: 180 MB/s over its outer 60 %, 90 MB/s inward; the new disk flat at 500 MB/s, 4× larger.
const records = [run('old HDD', 1000 * GB, (x) => (x < 600 * GB ? 180 * MB : 90 * MB)), run('new SSD', 4000 * GB, () => 500 * MB)];
const generatedAt = new Date('2026-12-01T10:00:00Z');

test('a surface run is its own kind', () => {
  assert.equal(runKind(records[0]!), 'surface');
});

test('Compare: a line per disk over its share of bytes, the slowest zone shaded and named; no bar of it', async () => {
  const view = buildCompareView(records, 'MB');
  const chart = view.charts.find((c) => c.id === 'surface') as SeriesChartModel | undefined;
  assert.ok(chart, `charts: ${view.charts.map((c) => c.id).join(', ')}`);
  assert.deepEqual(chart.x.domain, [0, 100]);
  assert.equal(chart.lines.length, 2);
  const old = chart.lines[0]!.points;
  assert.ok(old.filter((p) => p.x < 55).every((p) => Math.abs(p.y - 180) < 0.5));
  assert.ok(old.filter((p) => p.x > 65).every((p) => Math.abs(p.y - 90) < 0.5));
  assert.ok(
    chart.lines[1]!.points.every((p) => Math.abs(p.y - 500) < 0.5),
    'the new disk is flat',
  );
  // The old disk's slowest zone shaded; the flat new disk, of one zone, has none to mark.
  assert.equal(chart.marks?.length, 1);
  const [oldSpan] = chart.marks!;
  assert.equal(oldSpan!.runIndex, 0);
  const [from, to] = oldSpan!.x;
  assert.ok(Math.abs(from - 60) < 2 && to === 100, `old disk's slowest zone ${from}–${to} %`);
  assert.equal(oldSpan!.band, undefined, 'shaded full height');
  assert.match(
    chart.note ?? '',
    /#1 old HDD: slowest 90\.00 MB\/s from .* to 931 GiB \(6\d–100 %\); #2 new SSD: one speed across the disk, 500 MB\/s/,
  );
  const bars = view.charts.filter((c) => c.shape === 'bars');
  assert.ok(
    bars.every((c) => c.shape !== 'bars' || c.categories.every((cat) => cat.test !== SURFACE_TEST)),
    'not drawn again as a bar',
  );
  assert.ok(!view.charts.some((c) => c.shape === 'table' && JSON.stringify(c).includes('read speed at offset')));

  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['old HDD', 'new SSD'], scale: 'auto' }));
  try {
    const section = app.container.querySelector('[data-chart-id="surface"]');
    assert.ok(section, 'the app draws it');
    assert.equal(section.querySelectorAll('path.plot-line').length, 2, 'one line per disk');
    assert.equal(section.querySelectorAll('rect[data-testid="series-span"]').length, 1, "the old disk's slowest zone shaded");
    assert.match(section.textContent ?? '', /slowest 90\.00 MB\/s/);
  } finally {
    await app.unmount();
  }
});

test("the report prints the surface chart beside the new disk, the old disk's slowest zone shaded", () => {
  const doc = buildReport(records, { generatedAt });
  assert.deepEqual(
    doc.charts.filter((c) => c.type === 'surface').map((c) => c.id),
    ['surface'],
  );
  const html = renderReportHtml(doc);
  const figure = html.slice(html.indexOf('data-chart-type="surface"'));
  const chart = figure.slice(0, figure.indexOf('</figure>'));
  assert.equal(chart.match(/data-testid="series-line"/g)?.length, 2);
  assert.equal(chart.match(/data-testid="series-span"/g)?.length, 1);
  assert.match(chart, /slowest 90\.00 MB\/s/);
});

test('overlapping slowest zones are told apart: each tagged with its run, in its colour, in a lane of its own above the plot', () => {
  // Two old HDDs, both slow on their inner part (from 60 % and from 50 %): the shading overlaps.
  const two = [
    run('old HDD', 1000 * GB, (x) => (x < 600 * GB ? 180 * MB : 90 * MB)),
    run('older HDD', 500 * GB, (x) => (x < 250 * GB ? 120 * MB : 60 * MB)),
  ];
  const html = renderReportHtml(buildReport(two, { generatedAt }));
  const figure = html.slice(html.indexOf('data-chart-type="surface"'));
  const chart = figure.slice(0, figure.indexOf('</figure>'));
  const plotTop = Number(
    /data-testid="y-axis"[^>]*y1="([\d.]+)"|y1="([\d.]+)"[^>]*data-testid="y-axis"/.exec(chart)!.slice(1).find(Boolean),
  );
  const tags = [...chart.matchAll(/<text[^>]*data-testid="span-tag"[^>]*>([^<]*)<\/text>/g)];
  assert.deepEqual(
    tags.map((t) => t[1]!.replace(/:.*/, '')),
    ['#1 slowest zone', '#2 slowest zone'],
    'each shaded zone names its run',
  );
  const bars = [...chart.matchAll(/<rect[^>]*data-testid="span-bar"[^>]*>/g)].map((m) => m[0]);
  assert.equal(bars.length, 2, 'a bar per zone, in its run’s colour');
  const ys = bars.map((b) => Number(/ y="([\d.]+)"/.exec(b)![1]));
  assert.notEqual(ys[0], ys[1], 'in lanes of their own');
  assert.ok(
    ys.every((y) => y < plotTop),
    `above the plot (bars at ${ys.join(', ')}, plot from ${plotTop})`,
  );
  assert.ok(bars[0]!.includes(`data-run="0"`) && bars[1]!.includes(`data-run="1"`));
});

test('the position axis is ticked every 10 % of the disk, so a zone named "0–40 %" is found on it', () => {
  const html = renderReportHtml(buildReport(records, { generatedAt }));
  const figure = html.slice(html.indexOf('data-chart-type="surface"'));
  const chart = figure.slice(0, figure.indexOf('</figure>'));
  const ticks = [...chart.matchAll(/<text[^>]*data-testid="x-tick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(ticks, ['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
});
