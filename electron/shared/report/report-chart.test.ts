// One drawing per chart (issue 37): the report prints the very SVG the app draws for a chart
// model (the same element at the same width), and decides its axis by Compare's rule, so a
// ×1,000 span is drawn on a log axis in the PDF as on Compare (the report's own drawing kept
// bars linear at ×1,051, the slow disk's bar a pixel wide).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { JSDOM } from 'jsdom';
import type { RunRecord, TestResult } from '../model/results.ts';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import { buildReport } from './report-model.ts';
import { buildCompareView } from '../charts/compare-view.ts';
import { ChartView } from '../../../renderer/src/charts/chart-view.ts';
import { draw } from '../../../renderer/src/charts/dom.ts';
import { renderReportHtml } from './report-html.ts';
import { REPORT_CHART_WIDTH } from './report-chart.ts';

const generatedAt = new Date('2026-12-01T10:00:00Z');

function result(test: string, rw: 'read' | 'write' | 'randread', blockSize: number, bytesPerSec: number): TestResult {
  return {
    test,
    params: { rw, blockSize, queueDepth: 1, threads: 1 },
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

/** An ATTO-like sweep of one pattern over six block sizes: a series chart (a line per run). */
const sweep = (label: string, factor: number) =>
  run(
    label,
    [4096, 16384, 65536, 262144, 1 << 20, 4 << 20].map((bs) => result(`sweep-read-${bs}`, 'read', bs, factor * Math.min(500e6, bs * 2000))),
  );

/** The app's drawing of one chart model at the report's width, and the report's, both as jsdom serialises them. */
async function bothDrawings(records: RunRecord[], chartId: string): Promise<{ app: string; report: string; scale: string | null }> {
  const labels = records.map((r) => r.label);
  const appModel = buildCompareView(records, 'MB').charts.find((c) => c.id === chartId);
  const doc = buildReport(records, { generatedAt });
  const reportModel = doc.charts.find((c) => c.id === chartId);
  assert.ok(appModel && reportModel, `${chartId} in the app and in the report`);
  assert.deepEqual(appModel, reportModel, 'one chart model for both');
  const drawn = await draw(h(ChartView, { chart: appModel, labels, scale: 'auto' }), { width: REPORT_CHART_WIDTH });
  let app: string;
  let scale: string | null;
  try {
    app = drawn.container.querySelector(`[data-chart-id="${chartId}"] svg`)!.outerHTML;
    scale = drawn.container.querySelector(`[data-chart-id="${chartId}"]`)!.getAttribute('data-scale');
  } finally {
    await drawn.unmount();
  }
  const page = new JSDOM(renderReportHtml(doc)).window.document;
  const report = page.querySelector(`figure[data-chart-id="${chartId}"] svg`)!.outerHTML;
  assert.equal(page.querySelector(`figure[data-chart-id="${chartId}"]`)!.getAttribute('data-scale'), scale, 'one axis rule');
  return { app, report, scale };
}

test('the app and the report draw the same SVG for a chart model: bars on a log axis, and lines', async () => {
  const seed = (await loadReferenceRuns()).slice(0, 3);
  const cases: Array<[RunRecord[], string, RegExp, string]> = [
    // The seeks: 151 beside 10,524 a second (×69.5), on a log axis.
    [seed, 'iops', /<rect[^>]*data-testid="bar"/, 'log'],
    [seed, 'throughput', /<rect[^>]*data-testid="bar"/, 'linear'],
    [[sweep('old disk', 1), sweep('new disk', 3)], 'block-size-sweep:read:q1t1', /<path[^>]*data-testid="series-line"/, 'log'],
  ];
  for (const [records, id, drawing, axis] of cases) {
    const { app, report, scale } = await bothDrawings(records, id);
    assert.equal(scale, axis, `${id}: a ${axis} axis`);
    assert.match(app, drawing, `${id}: the app drew it`);
    assert.equal(report, app, `${id}: the report's SVG is the app's`);
  }
});

test('the report draws a ×1,000 span on a log axis, as Compare does, and says so', async () => {
  // 4K random reads: 0.4 MB/s (an HDD's ~98 IOPS) beside 400 MB/s (an SSD's ~97,700 IOPS).
  const records = [
    run('HDD', [result('rnd4k-q1t1-read', 'randread', 4096, 0.4e6)]),
    run('SSD', [result('rnd4k-q1t1-read', 'randread', 4096, 400e6)]),
  ];
  const page = new JSDOM(renderReportHtml(buildReport(records, { generatedAt }))).window.document;
  const figure = page.querySelector('figure[data-chart-type="iops"]');
  assert.ok(figure, 'the report prints the IOPS chart');
  // On a log axis the HDD's bar reads: a good part of the SSD's (on a linear one, a thousandth).
  const bars = [...figure.querySelectorAll('rect[data-value]')].map((r) => {
    const [w, hgt] = [Number(r.getAttribute('width')), Number(r.getAttribute('height'))];
    return { value: Number(r.getAttribute('data-value')), length: r.closest('svg')!.getAttribute('data-layout') === 'columns' ? hgt : w };
  });
  assert.equal(bars.length, 2);
  const [slow, fast] = [...bars].sort((a, b) => a.value - b.value) as [(typeof bars)[0], (typeof bars)[0]];
  assert.ok(fast.value / slow.value > 999, `values ${slow.value} and ${fast.value}`);
  assert.ok(slow.length >= 0.2 * fast.length, `the slow bar is ${slow.length} px beside ${fast.length} px`);
  assert.match(figure.querySelector('figcaption')!.textContent!, /log scale: values span ×1,000/);
  assert.equal(figure.getAttribute('data-scale'), 'log');
  const ticks = [...figure.querySelectorAll('text[data-testid="value-tick"]')].map((t) => Number(t.textContent!.replace(/,/g, '')));
  if (ticks.length > 0)
    assert.ok(
      ticks.every((t) => Number.isInteger(Math.log10(t))),
      `decades: ${ticks.join(', ')}`,
    );
});
