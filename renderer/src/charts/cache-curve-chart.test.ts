// The cache curve through the chart registry: an access-curve run (figures as the recorder's
// kind keeps them) is one series over cache size in Compare and in the report, a line per run,
// and no bar chart draws its test again; the report's summary says it in words, beside the
// write volume of this month and the last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { measuredRecord } from '../../../electron/shared/model/result-builders.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { resultWithoutRuns } from '../../../electron/node/formats/common.ts';
import { ACCESS_CURVE_TEST, accessCurveFigures, parseTrace, traceCurve } from '../../../electron/shared/analysis/access-trace.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import type { SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { ChartGrid } from './chart-view.ts';
import { draw } from './dom.ts';

const KiB = 1024;

/** A month's recording, as a trace: `files` read round-robin `rounds` times. */
function recorded(label: string, files: number, rounds: number): RunRecord {
  const lines = [
    JSON.stringify({ v: 1, type: 'trace', fsid: 'f', fs: 'ext2/3/4', key: '00'.repeat(16), created_ms: 0 }),
    JSON.stringify({ type: 'session', t: 0, merge_ms: 1000, group: 'descriptors' }),
  ];
  for (let r = 0; r < rounds; r++)
    for (let f = 0; f < files; f++) lines.push(JSON.stringify({ t: 1000 * (r * files + f + 1), f: `file${f}`, s: 64 * KiB, k: 'r' }));
  const summary = parseTrace(lines.join('\n'));
  assert.ok(!('reason' in summary));
  return measuredRecord({
    label,
    target: { path: '/home', kind: 'folder' },
    results: [
      resultWithoutRuns({
        test: ACCESS_CURVE_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        warnings: [],
        figures: accessCurveFigures(summary, traceCurve(summary), 'test'),
      }),
    ],
  });
}

test('access-curve runs: one cache curve, a line per run, in Compare and in the report; no bar chart of the test', async () => {
  const records = [recorded('November', 4, 3), recorded('December', 8, 3)];
  const view = buildCompareView(records, 'MB');
  assert.deepEqual(
    view.charts.map((c) => c.type),
    ['cache-curve'],
  );
  const chart = view.charts[0] as SeriesChartModel;
  // 4 files of 64 KiB read 3 times: a 256 KiB cache serves the 2nd and 3rd rounds (2/3), a smaller one nothing (LRU, round-robin).
  const nov = chart.lines.find((l) => l.runIndex === 0)!.points;
  assert.equal(nov.find((p) => p.x === 256 * KiB)?.y, (2 / 3) * 100);
  assert.equal(nov.find((p) => p.x === 128 * KiB)?.y, 0);
  const dec = chart.lines.find((l) => l.runIndex === 1)!.points;
  assert.equal(dec.find((p) => p.x === 256 * KiB)?.y, 0, '8 files do not fit in 256 KiB');
  assert.equal(dec.find((p) => p.x === 512 * KiB)?.y, (2 / 3) * 100);

  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['November', 'December'], scale: 'auto' }));
  try {
    const section = app.container.querySelector('[data-testid="series-cache-curve"]');
    assert.ok(section, 'the app draws the cache curve');
    assert.equal(section.querySelectorAll('path.plot-line').length, 2, 'one line per run');
  } finally {
    await app.unmount();
  }
  const doc = buildReport(records, { generatedAt: new Date('2026-12-01T10:00:00Z') });
  // A recording is shown in the size section only (report-sections.ts), never among the disks' charts.
  assert.deepEqual(
    doc.sizeCharts.map((c) => c.type),
    ['cache-curve'],
  );
  assert.deepEqual(doc.charts, []);
  const html = renderReportHtml(doc);
  const figure = html.slice(html.indexOf('data-chart-type="cache-curve"'));
  assert.equal(figure.slice(0, figure.indexOf('</figure>')).match(/data-testid="series-line"/g)?.length, 2, 'the report prints both lines');
});

test('the report says the cache curve in words, and the write volume of this month beside last when the library has samples', () => {
  const records = [recorded('November', 4, 3)];
  const lines = [
    'sda: this month: 1 GB in 12.0 hours counted, not judged (fewer than 1 day); last month: 3.54 GB a day (46 GB in 13.0 days counted).',
  ];
  const doc = buildReport(records, { generatedAt: new Date('2026-12-01T10:00:00Z'), writeVolume: lines });
  const cache = doc.summary.find((s) => s.id === 'cache-curve');
  assert.equal(
    cache?.paragraphs[0],
    '#1 November: In these 12 seconds you read or wrote 262 kB of distinct files (786 kB in all, 12 touches); a cache that holds them all (262 kB) would have served 67 % of those bytes: the rest were first touches, which miss at any size.',
  );
  assert.deepEqual(doc.summary.find((s) => s.id === 'write-volume')?.paragraphs, lines);
  const html = renderReportHtml(doc);
  assert.ok(html.includes('data-testid="summary-write-volume"') && html.includes('3.54 GB a day'));
  assert.ok(!buildReport(records, { generatedAt: new Date() }).summary.some((s) => s.id === 'write-volume'), 'no samples, no section');
});
