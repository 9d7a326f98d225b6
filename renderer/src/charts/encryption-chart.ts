// Compare's encryption chart: each run's sequential figure as a solid bar, each unencrypted
// run's forecast under dm-crypt on this CPU hatched and outlined (estimated, never a
// measurement), the cipher's ceiling as a dashed line. Not a registry entry: it needs this
// machine's cipher ceilings (the system store), which a report of stored runs does not have.
import { createElement as h, memo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber, formatTick } from '../../../electron/core/analysis/units.ts';
import type { EncryptionView } from '../view/encryption-view.ts';
import { logDomain } from '../view/compare-view.ts';
import { tooltipStyle } from './chart-frame.ts';
import { SERIES_COLORS } from './colors.ts';
import { useWidth } from './use-width.ts';

export const EncryptionChart = memo(function EncryptionChart({
  view,
  unitLabel,
  logScale,
}: {
  view: EncryptionView;
  unitLabel: string;
  logScale: boolean;
}) {
  const [box, width] = useWidth<HTMLDivElement>();
  const data = view.rows.map((r) => ({
    name: `#${r.runIndex + 1} ${r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label}`,
    measured: r.measured,
    forecast: r.forecast,
    runIndex: r.runIndex,
  }));
  return h(
    'div',
    { className: 'chart', 'data-testid': 'enc-chart', 'data-scale': logScale ? 'log' : 'linear' },
    h(
      'div',
      { ref: box },
      width
        ? h(
            BarChart,
            { width, height: 300, data, margin: { top: 16, right: 24, bottom: 8, left: 8 } },
            h(
              'defs',
              null,
              h(
                'pattern',
                { id: 'forecast-hatch', width: '6', height: '6', patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
                h('rect', { width: '6', height: '6', fill: 'var(--surface)' }),
                h('line', { x1: '0', y1: '0', x2: '0', y2: '6', stroke: 'var(--muted)', strokeWidth: '2' }),
              ),
            ),
            h(CartesianGrid, { stroke: 'var(--grid)', strokeDasharray: '3 3' }),
            h(XAxis, { dataKey: 'name', stroke: 'var(--muted)', interval: 0, tick: { fontSize: 11 } }),
            h(YAxis, {
              width: 80,
              stroke: 'var(--muted)',
              scale: logScale ? 'log' : 'auto',
              allowDataOverflow: logScale,
              domain: logScale
                ? logDomain([...data, { line: view.cipherLine ?? undefined }], ['measured', 'forecast', 'line'])
                : [0, 'auto'],
              tickFormatter: (v: number) => formatTick(v),
            }),
            h(Tooltip, {
              formatter: (v: unknown, name: unknown) =>
                `${formatNumber(Number(v))} ${unitLabel}${name === 'forecast' ? ' (estimated)' : ''}`,
              contentStyle: tooltipStyle,
              cursor: { fill: 'var(--grid)' },
            }),
            h(
              Bar,
              { dataKey: 'measured', name: 'measured', isAnimationActive: false },
              ...data.map((d) => h(Cell, { key: d.runIndex, fill: SERIES_COLORS[d.runIndex], 'data-testid': 'enc-measured' } as object)),
            ),
            h(
              Bar,
              {
                dataKey: 'forecast',
                name: 'forecast',
                isAnimationActive: false,
                fill: 'url(#forecast-hatch)',
                strokeDasharray: '5 3',
                strokeWidth: 2,
              },
              ...data.map((d) => h(Cell, { key: d.runIndex, stroke: SERIES_COLORS[d.runIndex], 'data-testid': 'enc-forecast' } as object)),
            ),
            view.cipherLine !== null
              ? h(ReferenceLine, {
                  y: view.cipherLine,
                  stroke: 'var(--danger)',
                  strokeDasharray: '6 4',
                  strokeWidth: 2,
                  ifOverflow: 'extendDomain',
                  label: {
                    value: `cipher ceiling ${formatNumber(view.cipherLine)} ${unitLabel}`,
                    position: 'insideTopRight',
                    fill: 'var(--danger)',
                    fontSize: 12,
                  },
                })
              : null,
          )
        : null,
    ),
  );
});
