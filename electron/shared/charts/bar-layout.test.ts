// The app's bar chart layout (bar-layout.ts): whatever the width and the number of tests,
// every test's title is whole, no two bars or labels overlap, every bar carries its run's
// number, and a small bar beside a big one keeps a visible size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import type { BarDatum } from './compare-view.ts';
import { PlotChartView } from '../../../renderer/src/charts/plot-chart-view.ts';
import { layoutBars, linearTicks, type PlacedBar } from './bar-layout.ts';
import { logTicks } from './axis-ticks.ts';
import { draw } from '../../../renderer/src/charts/dom.ts';
import type { BarChartModel } from './chart-model.ts';

const TITLES = ['sequential read 1M Q8T1', 'sequential read 1M Q1T1', 'sequential write 1M Q8T1', 'sequential write 1M Q1T1'];

function datum(title: string, values: number[]): BarDatum {
  const d: BarDatum = {
    test: title,
    title,
    labels: values.map((v, i) => ({ value: v.toFixed(1), ...(i > 0 ? { ratio: `×${(v / values[0]!).toFixed(2)}` } : {}) })),
  };
  values.forEach((v, i) => (d[`r${i}`] = v));
  return d;
}

const overlaps = (a: PlacedBar, b: PlacedBar) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function assertNoOverlap(bars: PlacedBar[]) {
  for (let i = 0; i < bars.length; i++)
    for (let j = i + 1; j < bars.length; j++)
      assert.ok(!overlaps(bars[i]!, bars[j]!), `bars ${i} and ${j} overlap: ${JSON.stringify([bars[i], bars[j]])}`);
}

test('at 900 px, 4 tests × 2 runs stand as columns, titles whole, bars apart and inside the plot', () => {
  const data = TITLES.map((t, i) => datum(t, [100 + i, 300 + i]));
  const layout = layoutBars(data, 2, 900, false);
  assert.equal(layout.orientation, 'columns');
  if (layout.orientation !== 'columns') return;
  assert.equal(layout.bars.length, 8);
  assertNoOverlap(layout.bars);
  for (const bar of layout.bars) {
    assert.ok(bar.x >= layout.plot.left && bar.x + bar.width <= layout.plot.right, `inside the plot: ${bar.x}+${bar.width}`);
    assert.ok(bar.y >= layout.plot.top && bar.y + bar.height <= layout.plot.bottom + 1e-9);
  }
  assert.deepEqual(
    layout.titles.map((t) => t.lines.join(' ')),
    TITLES,
    'every title whole: Q8T1 and Q1T1 still told apart',
  );
  // Linear from zero: a bar three times the value is three times as tall.
  assert.ok(Math.abs(layout.bars[1]!.height / layout.bars[0]!.height - 3) < 0.01);
});

test('at 390 px, or with 20 tests × 6 runs, the chart falls to rows: titles whole, one row per run, labels beside the bars inside the width', () => {
  for (const [width, tests, runs] of [
    [390, 4, 6],
    [390, 8, 2],
    [1280, 20, 6],
  ] as const) {
    const data = Array.from({ length: tests }, (_, t) =>
      datum(
        `${TITLES[t % 4]} #${t}`,
        Array.from({ length: runs }, (_, r) => 40 * (r + 1) * (t + 1)),
      ),
    );
    const layout = layoutBars(data, runs, width, false);
    assert.equal(layout.orientation, 'rows', `${width} px, ${tests} tests × ${runs} runs`);
    if (layout.orientation !== 'rows') return;
    assert.equal(layout.bars.length, tests * runs);
    assertNoOverlap(layout.bars);
    for (const t of layout.titles) assert.ok(!t.lines.join(' ').includes('…'), `whole: ${t.lines.join(' ')}`);
    for (const bar of layout.bars) {
      const text = `${bar.label!.value} ${bar.label!.ratio ?? ''}`.trim();
      assert.ok(bar.x + bar.width + 4 + text.length * 5.8 <= width, `"${text}" fits beside its bar at ${width} px`);
    }
  }
});

test('at 390 px, 4 tests × 2 runs still fit as columns: their titles wrap whole into three lines', () => {
  const layout = layoutBars(
    TITLES.map((t) => datum(t, [1, 2])),
    2,
    390,
    false,
  );
  assert.equal(layout.orientation, 'columns');
  assert.deepEqual(
    layout.titles.map((t) => t.lines.join(' ')),
    TITLES,
  );
  assert.ok(Math.max(...layout.titles.map((t) => t.lines.length)) <= 3);
});

test('a log axis keeps 151 seeks/s visible beside 10,524; a linear one says it may not (bars of 0.2 px are kept at their true size)', () => {
  const data = [datum('random read 4K Q1T1', [151, 10524]), datum('random write 4K Q1T1', [300, 20000])];
  const log = layoutBars(data, 2, 900, true);
  assert.equal(log.orientation, 'columns');
  assert.ok(Math.min(...log.bars.map((b) => b.height)) >= 8, `log heights ${log.bars.map((b) => b.height.toFixed(1))}`);
  const linear = layoutBars(data, 2, 900, false);
  const [small, big] = [linear.bars[0]!, linear.bars[1]!];
  assert.ok(Math.abs(big.height / small.height - 10524 / 151) < 0.5, 'linear heights in proportion');
});

test('a run without the figure has no bar, and the others keep their places', () => {
  const d = datum('big file write', [3, 0, 5]);
  delete d.r1;
  d.labels[1] = undefined;
  const layout = layoutBars([d, datum('big file delete', [1, 2, 3])], 3, 900, false);
  assert.deepEqual(
    layout.bars.map((b) => `${b.category}:${b.run}`),
    ['0:0', '0:2', '1:0', '1:1', '1:2'],
  );
  assert.equal(
    layout.bars[1]!.x,
    layout.bars[4]!.x - (layout.orientation === 'columns' ? layout.band : 0),
    'run #3 keeps its place in the band',
  );
});

test('value ticks: round steps from zero, powers of ten on a log axis', () => {
  assert.deepEqual(linearTicks(1000), [0, 200, 400, 600, 800, 1000]);
  assert.deepEqual(linearTicks(0.9), [0, 0.2, 0.4, 0.6, 0.8]);
  assert.deepEqual(logTicks(100, 100000), [100, 1000, 10000, 100000]);
  assert.deepEqual(logTicks(10, 150), [10, 20, 50, 100]);
});

test('the app draws every bar with its run number and its figure as a hover title, at 900 px (jsdom)', async () => {
  const chart: BarChartModel = {
    id: 'throughput',
    type: 'throughput',
    title: 'Throughput',
    unitLabel: 'MB/s',
    direction: 'higher',
    shape: 'bars',
    valueFormat: 'number',
    categories: TITLES.slice(0, 2).map((title, c) => ({
      key: title,
      test: title,
      title,
      bars: [0, 1].map((runIndex) => ({
        runIndex,
        value: 100 * (runIndex + 1) + c,
        valueText: String(100 * (runIndex + 1) + c),
        display: `${100 * (runIndex + 1) + c} MB/s`,
        ratioText: runIndex ? '×2.00' : null,
      })),
    })),
  };
  const app = await draw(h(PlotChartView, { chart, labels: ['old disk', 'new disk'], scale: 'auto' }));
  try {
    const bars = [...app.container.querySelectorAll('rect[data-testid="bar"]')];
    assert.equal(bars.length, 4);
    assert.deepEqual(
      [...app.container.querySelectorAll('[data-testid="bar-run"]')].map((n) => n.textContent),
      ['#1', '#2', '#1', '#2'],
    );
    assert.equal(bars[1]!.querySelector('title')!.textContent, '#2 new disk · sequential read 1M Q8T1: 200 MB/s (×2.00)');
    assert.equal(app.container.querySelector('svg')!.getAttribute('data-layout'), 'columns');
  } finally {
    await app.unmount();
  }
});
