// The steady preset's rounds chart (#41 item 2) through the registry, on rounds made up here and
// turned into a result by the run's own code (rate.ts's applySteadyState): the steady window
// placed on the rounds SNIA's rule judged, its band and fitted line, in Compare and in the
// report; a run not steady after 25 rounds has its last 5 marked as failed and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { measuredRecord, roundMeasurement } from '../../../electron/shared/model/result-builders.ts';
import type { RunRecord, TestResult } from '../../../electron/shared/model/results.ts';
import type { SeriesChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { CHARTS } from '../../../electron/shared/charts/charts.ts';
import { buildCompareView } from '../../../electron/shared/charts/compare-view.ts';
import { buildReport } from '../../../electron/shared/report/report-model.ts';
import { renderReportHtml } from '../../../electron/shared/report/report-html.ts';
import { applySteadyState } from '../../../electron/node/bench/kinds/rate.ts';
import { rateFlagText } from '../../../electron/shared/analysis/figure-text.ts';
import { ChartGrid } from './chart-view.ts';
import { draw } from './dom.ts';

const MB = 1e6;
const TEST = 'rnd4k-q32t1-write';

function steadyRun(label: string, roundsMB: number[]): RunRecord {
  const result: TestResult = {
    test: TEST,
    params: null,
    bytesPerSec: null,
    iops: null,
    latencyNs: null,
    best: null,
    runs: roundsMB.map((mb, i) => roundMeasurement(i + 1, mb * MB, 5)),
    histogram: null,
    cpu: null,
    underResolved: false,
    // What the aggregate says of all rounds together (aggregate.ts): their CV, the median's interval, noisy.
    cv: 0.8,
    precision: { ciRelative: 1.56, target: 0, seconds: roundsMB.length * 5, stoppedBy: 'steady' },
    warnings: [{ code: 'noisy', message: 'runs differ by 80 % (coefficient of variation, over all rounds)' }],
  } as unknown as TestResult;
  applySteadyState(result);
  return measuredRecord({ label, target: { path: '/mnt/ssd', kind: 'folder' }, settings: { preset: 'steady' }, results: [result] });
}

// A burst that falls, then settles: rounds 3–7 are the first 5 within the rule (round 2's 450
// spans 450 − 395 = 13 % with 3–6 but its line falls 12 %), the steady figure their mean.
const settling = steadyRun('TLC', [900, 450, 410, 400, 395, 405, 400, 402]);
// A drive that keeps climbing (garbage collection never done): 25 rounds, never steady.
const climbing = steadyRun(
  'QLC',
  Array.from({ length: 25 }, (_, i) => 100 + 8 * i),
);
const records = [settling, climbing];

const roundsChart = (charts: Array<{ id: string }>) => charts.find((c) => c.id === `steady-rounds:${TEST}`) as SeriesChartModel | undefined;

test('the rounds chart: a line per run over its rounds, the steady window placed on rounds 3–7 with its band and fitted line', () => {
  const view = buildCompareView(records, 'MB');
  const chart = roundsChart(view.charts);
  assert.ok(chart, `charts: ${view.charts.map((c) => c.id).join(', ')}`);
  assert.deepEqual(
    chart.lines.map((l) => l.points.length),
    [8, 25],
  );
  assert.deepEqual(chart.lines[0]!.points[0], { x: 1, y: 900 }, 'round 1 at x = 1, in MB/s');
  const [steady, notSteady] = chart.marks!;
  assert.deepEqual(steady!.x, [3, 7], 'the window is the first 5 rounds that pass');
  assert.equal(steady!.met, true);
  const mean = (410 + 400 + 395 + 405 + 400) / 5;
  assert.ok(Math.abs(steady!.band![0] - 0.9 * mean) < 1e-9 && Math.abs(steady!.band![1] - 1.1 * mean) < 1e-9, 'band 90–110 % of the mean');
  // The least-squares line of 410 400 395 405 400: slope −1.5 per round, through the mean at round 5.
  assert.ok(Math.abs(steady!.fit![0] - (mean + 3)) < 1e-9 && Math.abs(steady!.fit![1] - (mean - 3)) < 1e-9, `fit ${steady!.fit}`);
  assert.equal(steady!.tag, 'steady: rounds 3–7');
  assert.match(chart.note!, /#1 TLC: steady after 7 rounds \(rounds 3–7/);
  assert.match(chart.note!, /steady 402 MB\/s, fresh 900 MB\/s/);
  // Not steady after 25 rounds: a result, said, its last 5 marked as judged and failed.
  assert.deepEqual(notSteady!.x, [21, 25]);
  assert.equal(notSteady!.met, false);
  assert.equal(notSteady!.tag, 'not steady: rounds 21–25');
  assert.match(chart.note!, /#2 QLC: not steady after 25 rounds; the last 5: range/);
  assert.doesNotMatch(chart.note!, /#2 QLC: [^;]*steady \d/, 'no steady figure for a run that never was');
  // A line per run, then what is marked (the note keeps its breaks: one paragraph was hard to read).
  assert.deepEqual(
    chart.note!.split('\n').map((l) => l.slice(0, 8)),
    ['#1 TLC: ', '#2 QLC: ', 'Marked o'],
  );
});

test('the app draws the rounds with each window, the report prints the same', async () => {
  const view = buildCompareView(records, 'MB');
  const app = await draw(h(ChartGrid, { registry: CHARTS, charts: view.charts, labels: ['TLC', 'QLC'], scale: 'auto' }));
  try {
    const section = app.container.querySelector(`[data-chart-id="steady-rounds:${TEST}"]`);
    assert.ok(section, 'the app draws it');
    assert.equal(section.querySelectorAll('path.plot-line').length, 2, 'one line per run');
    assert.equal(section.querySelectorAll('circle.plot-point').length, 33, 'a dot per round');
    const regions = [...section.querySelectorAll('[data-testid="plot-region"]')];
    assert.deepEqual(
      regions.map((r) => r.getAttribute('data-met')),
      ['yes', 'no'],
    );
    assert.deepEqual(
      regions.map((r) => r.querySelector('[data-testid="span-tag"]')?.textContent),
      ['steady: rounds 3–7', 'not steady: rounds 21–25'],
    );
    assert.match(section.textContent ?? '', /not steady after 25 rounds/);
    // The last rounds' tag ends at the plot's end: from its start it ran past the plot (the report cut it).
    const tags = regions.map((r) => r.querySelector('[data-testid="span-tag"]')!);
    assert.equal(tags[1]!.getAttribute('text-anchor'), 'end');
    assert.equal(tags[0]!.getAttribute('text-anchor'), 'start');
    // Each window in a lane of its own above the plot, in its run's colour: two runs' windows that
    // overlap in rounds are told apart by their bars.
    const bars = regions.map((r) => r.querySelector('[data-testid="span-bar"]')!);
    assert.deepEqual(
      bars.map((b) => b.getAttribute('data-run')),
      ['0', '1'],
    );
    assert.notEqual(bars[0]!.getAttribute('y'), bars[1]!.getAttribute('y'), 'in lanes of their own');
  } finally {
    await app.unmount();
  }
  const doc = buildReport(records, { generatedAt: new Date('2026-12-01T10:00:00Z') });
  assert.ok(roundsChart(doc.charts), 'the report has the rounds chart');
  const html = renderReportHtml(doc);
  const at = html.indexOf('data-chart-type="steady-rounds"');
  assert.ok(at >= 0, 'printed');
  const figure = html.slice(at, html.indexOf('</figure>', at));
  assert.equal(figure.match(/data-testid="plot-region"/g)?.length, 2);
  assert.match(figure, /steady: rounds 3–7/);
  assert.match(figure, /not steady after 25 rounds/);
  // Every figure: the steady figure's spread is its window's, said so (it said "over 8 runs").
  assert.match(html, /CV [\d.]+ % over the 5 rounds judged/);
  assert.doesNotMatch(html, /CV [\d.]+ % over (8|25) runs/);
});

test('a single steady run is charted too (its report), and a run without the preset is not', () => {
  const doc = buildReport([settling], { generatedAt: new Date('2026-12-01T10:00:00Z') });
  assert.equal(roundsChart(doc.charts)?.lines.length, 1);
  const plain = steadyRun('x', [1, 2, 3]);
  plain.results[0]!.figures = undefined;
  assert.equal(
    CHARTS.byId('steady-rounds')!.build({
      records: [plain],
      comparison: buildCompareView([plain, plain], 'MB').comparison,
      unit: 'MB',
      rows: [],
    }).length,
    0,
  );
});

test("the steady figure's spread is its window's: a spent burst before it is not noise, a window that varies is", () => {
  // 900 then ~400 MB/s: all rounds' CV is 35 %, the window's 1 %; the report printed "402 MB/s ±156 % (noisy)".
  const result = settling.results[0]!;
  assert.ok(result.cv !== null && result.cv < 0.02, `the window's CV (${result.cv})`);
  assert.equal(result.precision?.ciRelative, null, "no median's interval of all rounds");
  assert.equal(rateFlagText(result), '', 'not flagged');
  // Never steady, its last 5 rounds wide apart: flagged, by their own CV.
  const wide = steadyRun(
    'wide',
    Array.from({ length: 25 }, (_, i) => (i % 2 ? 140 : 60)),
  ).results[0]!;
  assert.match(rateFlagText(wide), /^ \(noisy, CV 47\.6 %\)$/);
  assert.match(wide.warnings.find((w) => w.code === 'noisy')!.message, /the 5 rounds judged last differ by 47\.6 %/);
});
