// The sustained write's chart through the registry: one line per run of write speed over bytes
// written, in the app's Compare and in the report, with the buyer's sentence under it; the
// stream after the rest as its own chart; the result is not drawn again as a bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { measuredRecord } from '../../../electron/shared/model/result-builders.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import type { SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { sustainedResult } from '../../../electron/node/bench/kinds/sustained-write.ts';
import { samplePlan, workerStreams } from '../../../electron/node/bench/kinds/fixtures/sustained-drive.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { ChartGrid } from './chart-view.ts';
import { draw } from './dom.ts';

const MB = 1e6;

function run(label: string, fill: Array<[number, number]>, recovery: Array<[number, number]>): RunRecord {
  const plan = samplePlan();
  const { lines, intervals } = workerStreams(plan, { levels: fill }, { levels: recovery });
  return measuredRecord({ label, target: { path: '/mnt/ssd', kind: 'folder' }, results: [sustainedResult(plan, lines, intervals)!] });
}

// A QLC drive (2 GB at 400 MB/s, then 40) and a TLC drive whose larger cache outlasts the span.
const records = [
  run(
    'QLC',
    [
      [2e9, 400 * MB],
      [Infinity, 40 * MB],
    ],
    [
      [0.3e9, 400 * MB],
      [Infinity, 40 * MB],
    ],
  ),
  run('TLC', [[Infinity, 900 * MB]], [[Infinity, 900 * MB]]),
];
const generatedAt = new Date('2026-12-01T10:00:00Z');

test('Compare: a line per run over bytes written, reaching the span; the sentence for a buyer under it; no bar of it', async () => {
  const view = buildCompareView(records, 'MB');
  const fill = view.charts.find((c) => c.id === 'sustained-write:fill') as SeriesChartModel | undefined;
  assert.ok(fill, `charts: ${view.charts.map((c) => c.id).join(', ')}`);
  // Decimal bytes, as the sentence and the MB/s axis say them, from nothing written to the end.
  assert.equal(fill.x.format, 'decimal-bytes');
  assert.deepEqual(fill.x.domain?.[0], 0);
  assert.equal(fill.lines.length, 2);
  for (const line of fill.lines) assert.ok(Math.abs(line.points.at(-1)!.x / 3e9 - 1) < 0.01, 'the line reaches the bytes written');
  // QLC: 400 MB/s up to 2 GB, 40 after.
  const qlc = fill.lines[0]!.points;
  assert.ok(qlc.filter((p) => p.x < 1.8e9).every((p) => Math.abs(p.y - 400) < 4));
  assert.ok(qlc.filter((p) => p.x > 2.2e9).every((p) => Math.abs(p.y - 40) < 0.5));
  assert.equal(
    fill.note,
    '#1 QLC: after 2.0 GB this drive writes at 40 MB/s: a 20 GB copy would take 7 min 35 s, not 50 s; ' +
      '#2 TLC: over 3.0 GB written this drive kept 900 MB/s: no cache ran out within the span',
  );
  assert.ok(
    view.charts.some((c) => c.id === 'sustained-write:recovery'),
    'the stream after the rest has its chart',
  );
  const bars = view.charts.filter((c) => c.shape === 'bars');
  assert.ok(
    bars.every((c) => c.shape !== 'bars' || c.categories.every((cat) => cat.test !== 'sustained-write')),
    'not drawn again as a bar',
  );

  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['QLC', 'TLC'], scale: 'auto' }));
  try {
    const section = app.container.querySelector('[data-chart-id="sustained-write:fill"]');
    assert.ok(section, 'the app draws it');
    assert.equal(section.getAttribute('data-testid'), 'series-sustained-write');
    assert.equal(section.querySelectorAll('path.plot-line').length, 2, 'one line per run');
    assert.match(section.textContent ?? '', /after 2\.0 GB this drive writes at 40 MB\/s/);
  } finally {
    await app.unmount();
  }
});

test('the report prints both sustained-write charts with their lines and the sentence', () => {
  const doc = buildReport(records, { generatedAt });
  assert.deepEqual(
    doc.charts.filter((c) => c.type === 'sustained-write').map((c) => c.id),
    ['sustained-write:fill', 'sustained-write:recovery'],
  );
  const html = renderReportHtml(doc);
  const figure = html.slice(html.indexOf('data-chart-type="sustained-write"'));
  const first = figure.slice(0, figure.indexOf('</figure>'));
  assert.equal(first.match(/data-testid="series-line"/g)?.length, 2);
  assert.match(first, /a 20 GB copy would take 7 min 35 s, not 50 s/);
  // 40 beside 900 MB/s is a ×22 spread: a log axis with round decades (on a linear one the
  // slow line lay near zero), and round decimal steps of bytes written from 0 (it drew
  // "28.5 MiB, 226 MiB, 424 MiB": the first sample, a midpoint, the last).
  assert.match(first, /<figcaption[^>]*>[^<]*<span[^>]*> \(MB\/s, log scale: values span ×2\d, higher is better\)/);
  const texts = [...first.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  for (const tick of ['10 MB/s', '100 MB/s', '1,000 MB/s', '0', '1.0 GB', '2.0 GB', '3.0 GB'])
    assert.ok(texts.includes(tick), `tick ${tick} in ${texts.join(' | ')}`);
});

test("a run not judged says so from its warning, whatever its cache figure's basis begins with", () => {
  const flat = run('busy', [[Infinity, 900 * MB]], [[Infinity, 900 * MB]]);
  const result = flat.results[0]!;
  const cache = result.figures!.find((f) => f.metric === 'cacheBytes' && f.subject === '')!;
  cache.basis = 'too noisy to tell: the write speed varied ±40 % between intervals';
  result.warnings.push({ code: 'sustained-not-judged', message: "the drive's fast cache is too noisy to tell" });
  const chart = buildCompareView([flat, records[0]!], 'MB').charts.find((c) => c.type === 'sustained-write') as SeriesChartModel;
  assert.match(chart.note ?? '', /#1 busy[^\n]*this drive's fast cache is too noisy to tell: the write speed varied ±40 %/);
});
