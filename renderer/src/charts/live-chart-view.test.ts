// The Live run chart's axes, drawn in jsdom: round steps on a linear value axis, decades on a
// log one (recharts' own log ticks read "200, 60, 3, 0.9"), round seconds along the time axis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { liveScale, type LiveChartSeries } from '../view/live-view.ts';
import { LiveChart } from './live-chart-view.ts';
import { draw } from './dom.ts';

const line = (test: string, mbps: number, seconds = 9.7): LiveChartSeries => ({
  test,
  title: test,
  points: Array.from({ length: 40 }, (_, i) => ({ tSec: (i * seconds) / 39, mbps: mbps * (1 + 0.02 * Math.sin(i)) })),
});

async function ticks(series: LiveChartSeries[]): Promise<{ time: string[]; values: string[]; log: boolean }> {
  const scale = liveScale(series);
  const app = await draw(h(LiveChart, { drawn: series, scale }));
  try {
    const texts = (axis: string) => [...app.container.querySelectorAll(`[data-testid="${axis}-tick"]`)].map((t) => t.textContent ?? '');
    return { time: texts('x'), values: texts('y'), log: scale.log };
  } finally {
    await app.unmount();
  }
}

const number = (text: string) => Number(text.replace(/ (MB\/s|s)$/, '').replace(/,/g, ''));

test('a linear value axis on one round step, and round seconds', async () => {
  const t = await ticks([line('seq1m-q8t1-read', 2_410)]);
  assert.equal(t.log, false);
  assert.ok(t.values.length >= 3, t.values.join(' | '));
  const step = number(t.values[1]!) - number(t.values[0]!);
  assert.ok(
    [1, 2, 5].some((m) => Number.isInteger(Math.log10(step / m))),
    `step ${step}: ${t.values.join(' | ')}`,
  );
  assert.ok(
    t.time.every((s) => Number.isInteger(number(s))),
    `seconds: ${t.time.join(' | ')}`,
  );
});

test('a log value axis (0.6 MB/s beside 40 MB/s) labelled in powers of ten', async () => {
  const t = await ticks([line('seq1m-q8t1-read', 40), line('rnd4k-q1t1-read', 0.6)]);
  assert.equal(t.log, true);
  assert.ok(t.values.length >= 2, t.values.join(' | '));
  assert.ok(
    t.values.every((v) => Number.isInteger(Math.round(Math.log10(number(v)) * 1e9) / 1e9)),
    `value ticks: ${t.values.join(' | ')}`,
  );
});
