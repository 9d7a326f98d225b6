// Compare's charts, all from the chart registry (shared/charts/charts.ts): the types
// without a picker in the grid, each type with a picker (one chart per test) as a section
// that shows the chart picked. Nothing here names a chart type.
import { createElement as h, useId, type ReactElement } from 'react';
import type { ChartModel } from '../../../electron/shared/charts/chart-model.ts';
import type { ChartRegistry } from '../../../electron/shared/charts/chart-registry.ts';
import type { ScaleMode } from '../../../electron/shared/charts/chart-scale.ts';
import { PlotChartView } from './plot-chart-view.ts';
import { TableChartView } from '../../../electron/shared/charts/table-chart-view.ts';

export function ChartView(props: { chart: ChartModel; labels: string[]; scale: ScaleMode; heading?: 'h2' | 'h3' }): ReactElement {
  const { chart, ...rest } = props;
  if (chart.shape === 'table') return h(TableChartView, { chart, ...(rest.heading ? { heading: rest.heading } : {}) });
  return h(PlotChartView, { chart, ...rest });
}

interface ChartsProps {
  registry: ChartRegistry;
  charts: ChartModel[];
  labels: string[];
  scale: ScaleMode;
}

/** The charts whose type has no picker, side by side. */
export function ChartGrid({ registry, charts, labels, scale }: ChartsProps): ReactElement {
  const shown = charts.filter((c) => !registry.byId(c.type)?.picker);
  return h(
    'div',
    { className: 'chart-grid' },
    ...shown.map((chart) => h(ChartView, { key: chart.id, chart, labels, scale })),
    shown.length === 0 ? h('p', { className: 'muted' }, 'These runs share no figures to chart.') : null,
  );
}

/** One section per chart type with a picker: its heading, a choice of test, the chart picked. */
export function ChartPickers(
  props: ChartsProps & { picks: Record<string, string>; onPick: (type: string, chartId: string) => void },
): ReactElement {
  const { registry, charts } = props;
  return h(
    'div',
    { className: 'chart-pickers' },
    ...registry.types
      .filter((t) => t.picker)
      .map((type) => h(PickerSection, { key: type.id, ...props, type: type.id, charts: charts.filter((c) => c.type === type.id) })),
  );
}

function PickerSection(
  props: ChartsProps & { type: string; picks: Record<string, string>; onPick: (type: string, chartId: string) => void },
): ReactElement {
  const { registry, type, charts, picks, onPick, labels, scale } = props;
  const headingId = useId();
  const selectId = useId();
  const picker = registry.byId(type)!.picker!;
  const chart = charts.find((c) => c.id === picks[type]) ?? charts[0];
  return h(
    'section',
    { 'aria-labelledby': headingId, className: 'below-fold', 'data-testid': `picker-${type}` },
    h('h2', { id: headingId }, picker.heading),
    chart
      ? [
          h('label', { key: 'l', htmlFor: selectId }, 'Test '),
          h(
            'select',
            { key: 's', id: selectId, value: chart.id, onChange: (e: { target: { value: string } }) => onPick(type, e.target.value) },
            ...charts.map((c) => h('option', { key: c.id, value: c.id }, c.subject ?? c.title)),
          ),
          h(ChartView, { key: chart.id, chart, labels, scale, heading: 'h3' }),
        ]
      : h('p', { className: 'muted' }, picker.empty),
  );
}
