// The app's view of a bar or series chart model: the frame (title, unit, axis note, the
// figures as a table; chart-frame.ts) around the one drawing of the model (chart-svg.ts) at the
// width its box measures, on the axis the page's scale switch chooses (chart-scale.ts). The
// report draws the same SVG (report-chart.ts). It names no chart type: the model says it all.
import { createElement as h, memo, useId, useMemo } from 'react';
import type { BarChartModel } from '../../../electron/shared/charts/chart-model.ts';
import { barRows } from '../../../electron/shared/charts/compare-view.ts';
import { chartFrame } from '../../../electron/shared/charts/chart-frame.ts';
import { chartScale, type ScaleMode } from '../../../electron/shared/charts/chart-scale.ts';
import { ChartSvg, type DrawnChart } from '../../../electron/shared/charts/chart-svg.ts';
import { SERIES_COLORS } from '../../../electron/shared/charts/colors.ts';
import { useWidth } from './use-width.ts';

export const PlotChartView = memo(function PlotChartView({
  chart,
  labels,
  scale,
  heading = 'h2',
}: {
  chart: DrawnChart;
  labels: string[];
  scale: ScaleMode;
  heading?: 'h2' | 'h3';
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const headingId = useId();
  const choice = useMemo(() => chartScale(chart, scale), [chart, scale]);
  return chartFrame(
    { chart, testId: `${chart.shape}-${chart.type}`, scale: choice, heading, headingId, box, labels },
    width ? h(ChartSvg, { chart, labels, width, log: choice.log }) : null,
    chart.shape === 'bars' ? h(Bases, { chart }) : null,
    chart.shape === 'series' && chart.note ? h('p', { className: 'muted chart-note' }, chart.note) : null,
  );
});

/** What each bar stands on (a workload's passes and their range), per run, under the chart. */
function Bases({ chart }: { chart: BarChartModel }) {
  const rows = barRows(chart).filter((d) => d.bases?.some(Boolean));
  if (rows.length === 0) return null;
  return h(
    'dl',
    { className: 'pass-ranges', 'data-testid': `bases-${chart.type}` },
    ...rows.map((d) =>
      h(
        'div',
        { key: d.title },
        h('dt', null, d.title),
        ...d.bases!.map((basis, i) =>
          basis
            ? h(
                'dd',
                { key: i, 'data-run': i },
                h('span', { className: 'swatch', style: { background: SERIES_COLORS[i] } }, `#${i + 1}`),
                ' ',
                `${d.labels[i]?.value}: ${basis}`,
              )
            : null,
        ),
      ),
    ),
  );
}
