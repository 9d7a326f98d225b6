// The Live run chart: one line per test of MB/s over seconds, drawn at its box's measured width
// by the same SVG line drawing as Compare's and the report's series (line-plot.ts). A run's
// samples arrive a few times a second; redrawing a few hundred points' paths is cheap, so no
// chart library is needed here either. Its axes are labelled on round steps that fit
// (view/axis-ticks.ts): recharts' own ticks said "0 s 0.85 s 1.7 s 2.55 s 3.374 s", its linear
// value ticks "650 1,300 1,950 2,600 MB/s" and its log ones "200, 60, 3, 0.9".
import { createElement as h, useMemo, type ReactElement } from 'react';
import { formatTick } from '../../../electron/shared/analysis/units.ts';
import { liveLineStyle, type LiveChartSeries, type LiveScale } from '../view/live-view.ts';
import { logTicks, niceTicks, seriesXAxis } from '../../../electron/shared/charts/axis-ticks.ts';
import { LinePlot, plotWidth } from '../../../electron/shared/charts/line-plot.ts';
import { useWidth } from './use-width.ts';

const PLOT_HEIGHT = 240;
const seconds = (v: number) => `${formatTick(v)} s`;
const mbps = (v: number) => `${formatTick(v)} MB/s`;

export function LiveChart({ drawn, scale }: { drawn: LiveChartSeries[]; scale: LiveScale }): ReactElement {
  const [box, width] = useWidth<HTMLDivElement>();
  const lines = useMemo(
    () =>
      drawn.map((s, i) => ({
        key: s.test,
        points: s.points.map((p) => ({ x: p.tSec, y: p.mbps })),
        stroke: liveLineStyle(i).stroke,
        dash: liveLineStyle(i).dash,
        markers: false,
        name: s.title,
        attrs: { 'data-testid': 'live-line', 'data-test': s.test },
      })),
    [drawn],
  );
  const top = useMemo(() => Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p.y))), [lines]);
  const [floor, ceiling] = scale.domain;
  const logDomain: [number, number] | null = scale.log && typeof ceiling === 'number' ? [floor, ceiling] : null;
  const yTicks = logDomain ? logTicks(...logDomain) : niceTicks(top);
  const yDomain: [number, number] = logDomain ?? [0, yTicks.at(-1)!];
  const times = lines.flatMap((l) => l.points.map((p) => p.x));
  const xAxis = seriesXAxis({ scale: 'linear' }, times, width ? plotWidth(width, yTicks.map(mbps)) : 0, seconds);
  return h(
    'div',
    { ref: box },
    width
      ? h(LinePlot, {
          width,
          plotHeight: PLOT_HEIGHT,
          className: 'live-chart',
          axes: {
            x: { domain: xAxis.domain, ticks: xAxis.ticks, label: seconds },
            y: { log: !!logDomain, domain: yDomain, ticks: yTicks, label: mbps },
          },
          lines,
        })
      : null,
  );
}
