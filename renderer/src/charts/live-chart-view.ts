// The Live run chart: one line per test of MB/s over seconds, drawn at its box's measured width.
// Its axes are labelled on round steps that fit (view/axis-ticks.ts, as Compare's series charts):
// recharts' own ticks on [0, the last sample] said "0 s 0.85 s 1.7 s 2.55 s 3.374 s", its linear
// value ticks "650 1,300 1,950 2,600 MB/s" and its log ones "200, 60, 3, 0.9". createElement, not
// JSX, so Node's tests draw it.
import { createElement as h, useMemo, type ReactElement } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatTick } from '../../../electron/core/analysis/units.ts';
import { liveLineStyle, type LiveChartSeries, type LiveScale } from '../view/live-view.ts';
import { logTicks, niceTicks, seriesXAxis } from '../view/axis-ticks.ts';
import { useWidth } from './use-width.ts';

const Y_AXIS = 100;
const MARGIN = { top: 8, right: 24, bottom: 16, left: 8 };
const seconds = (v: number) => `${formatTick(v)} s`;

export function LiveChart({ drawn, scale }: { drawn: LiveChartSeries[]; scale: LiveScale }): ReactElement {
  const [box, width] = useWidth<HTMLDivElement>();
  const times = useMemo(() => drawn.flatMap((s) => s.points.map((p) => p.tSec)), [drawn]);
  const xAxis = seriesXAxis({ scale: 'linear' }, times, width ? width - MARGIN.left - MARGIN.right - Y_AXIS : 0, seconds);
  const top = useMemo(() => Math.max(0, ...drawn.flatMap((s) => s.points.map((p) => p.mbps))), [drawn]);
  const [floor, ceiling] = scale.domain;
  const logDomain: [number, number] | null = scale.log && typeof ceiling === 'number' ? [floor, ceiling] : null;
  const yTicks = logDomain ? logTicks(...logDomain) : niceTicks(top);
  return h(
    'div',
    { ref: box },
    width
      ? h(
          LineChart,
          { width, height: 280, margin: MARGIN, accessibilityLayer: false },
          h(CartesianGrid, { stroke: 'var(--grid)', strokeDasharray: '3 3' }),
          h(XAxis, {
            type: 'number',
            dataKey: 'tSec',
            domain: xAxis.domain,
            ticks: xAxis.ticks,
            interval: 0,
            tickFormatter: seconds,
            tick: { fontSize: 11 },
            stroke: 'var(--muted)',
            allowDuplicatedCategory: false,
          }),
          h(YAxis, {
            width: Y_AXIS,
            stroke: 'var(--muted)',
            scale: scale.log ? 'log' : 'auto',
            domain: logDomain ?? [0, yTicks.at(-1)!],
            ticks: yTicks,
            interval: 0,
            allowDataOverflow: scale.log,
            tickFormatter: (v: number) => `${formatTick(v)} MB/s`,
          }),
          h(Tooltip, {
            formatter: (v: unknown) => `${Number(v).toFixed(1)} MB/s`,
            labelFormatter: (t: unknown) => `${Number(t)} s`,
            contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' },
            cursor: { stroke: 'var(--muted)' },
          }),
          drawn.map((s, i) =>
            h(Line, {
              key: s.test,
              data: s.points,
              dataKey: 'mbps',
              name: s.title,
              stroke: liveLineStyle(i).stroke,
              strokeDasharray: liveLineStyle(i).dash,
              strokeWidth: 2,
              dot: false,
              isAnimationActive: false,
            }),
          ),
        )
      : null,
  );
}
