// Compare's encryption chart: each run's sequential figure as a solid bar, each unencrypted
// run's forecast under dm-crypt on this CPU hatched and outlined (estimated, never a
// measurement), the cipher's ceiling as a dashed line. Not a registry entry: it needs this
// machine's cipher ceilings (the system store), which a report of stored runs does not have.
// Plain SVG on the axis rule of every chart (chart-scale.ts) and its ticks (axis-ticks.ts).
import { createElement as h, memo, type ReactElement } from 'react';
import { formatNumber, formatTick } from '../../../electron/shared/analysis/units.ts';
import type { EncryptionView } from '../view/encryption-view.ts';
import { wrapTickLabel } from '../../../electron/shared/charts/compare-view.ts';
import { logTicks, niceTicks, TICK_CHAR_PX } from '../../../electron/shared/charts/axis-ticks.ts';
import { logDomain } from '../../../electron/shared/charts/chart-scale.ts';
import { SERIES_COLORS } from '../../../electron/shared/charts/colors.ts';
import { useWidth } from './use-width.ts';

const HEIGHT = 300;
const MARGIN = { top: 16, right: 24, left: 8 };
const LABEL_LINES = 2;
const LINE_PX = 14;

/**
 * A run's name under its bars in at most two lines of the band: a word too long for a line is
 * broken (a 200-character one would run under its neighbours'), the rest cut with "…" (the bars'
 * titles and the table under the chart say it whole).
 */
function nameLines(name: string, widthPx: number): string[] {
  const perLine = Math.max(4, Math.floor(widthPx / TICK_CHAR_PX));
  const pieces = name.split(/\s+/).flatMap((word) => word.match(new RegExp(`.{1,${perLine}}`, 'gu')) ?? []);
  return wrapTickLabel(pieces.join(' '), widthPx, TICK_CHAR_PX, LABEL_LINES);
}

/** What the bars are: measured, estimated (with how close the forecast came in the lab), the cipher's line. */
export function EncryptionLegend({ view }: { view: EncryptionView }): ReactElement {
  return h(
    'p',
    { className: 'muted', 'data-testid': 'enc-legend' },
    'Solid bars are measured. ',
    h('span', { className: 'forecast-key', 'aria-hidden': 'true' }),
    ' Hatched, outlined bars are ',
    h('strong', null, 'estimated'),
    ': each unencrypted run forecast under dm-crypt (aes-xts-plain64, 512-bit key) on this CPU. ',
    h('span', { className: 'ceiling-key', 'aria-hidden': 'true' }),
    " The dashed line is the cipher's ceiling on all cores.",
    view.accuracy ? ` ${view.accuracy}` : null,
  );
}

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
  return h(
    'div',
    { className: 'chart', 'data-testid': 'enc-chart', 'data-scale': logScale ? 'log' : 'linear' },
    h('div', { ref: box }, width ? h(EncryptionSvg, { view, unitLabel, logScale, width }) : null),
  );
});

function EncryptionSvg({
  view,
  unitLabel,
  logScale,
  width,
}: {
  view: EncryptionView;
  unitLabel: string;
  logScale: boolean;
  width: number;
}): ReactElement {
  const values = [...view.rows.flatMap((r) => [r.measured, r.forecast]), view.cipherLine].filter((v): v is number => v !== null && v > 0);
  const domain: [number, number] = logScale
    ? logDomain(
        values.map((v) => ({ v })),
        ['v'],
      )
    : [0, niceTicks(Math.max(1, ...values)).at(-1)!];
  const ticks = logScale ? logTicks(...domain) : niceTicks(domain[1]);
  const left = MARGIN.left + Math.max(...ticks.map((t) => formatTick(t).length)) * TICK_CHAR_PX + 8;
  const right = width - MARGIN.right;
  const bottom = HEIGHT - LABEL_LINES * LINE_PX - 12;
  const [lo, hi] = logScale ? (domain.map(Math.log10) as [number, number]) : domain;
  const y = (v: number) => {
    const p = ((logScale ? Math.log10(Math.max(v, domain[0])) : v) - lo) / (hi - lo || 1);
    return Math.round((bottom - Math.min(1, Math.max(0, p)) * (bottom - MARGIN.top)) * 10) / 10;
  };
  const band = (right - left) / Math.max(1, view.rows.length);
  const bar = Math.min(60, (band * 0.7) / 2);
  const ceiling = view.cipherLine;
  return h(
    'svg',
    { width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, className: 'encryption-chart' },
    h(
      'defs',
      null,
      h(
        'pattern',
        { id: 'forecast-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        h('rect', { width: 6, height: 6, fill: 'var(--surface)' }),
        h('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: 'var(--muted)', strokeWidth: 2 }),
      ),
    ),
    ...ticks.map((t) =>
      h(
        'g',
        { key: `t${t}` },
        h('line', { x1: left, x2: right, y1: y(t), y2: y(t), stroke: 'var(--grid)', strokeDasharray: '3 3' }),
        h(
          'text',
          { x: left - 6, y: y(t) + 4, fontSize: 11, fill: 'var(--muted)', textAnchor: 'end', 'data-testid': 'y-tick' },
          formatTick(t),
        ),
      ),
    ),
    h('line', { x1: left, x2: left, y1: MARGIN.top, y2: bottom, stroke: 'var(--muted)' }),
    h('line', { x1: left, x2: right, y1: bottom, y2: bottom, stroke: 'var(--muted)' }),
    ...view.rows.flatMap((r, i) => {
      const x = left + i * band + (band - 2 * bar - 4) / 2;
      const name = `#${r.runIndex + 1} ${r.label}`;
      const lines = nameLines(name, band - 8);
      const color = SERIES_COLORS[r.runIndex % SERIES_COLORS.length];
      return [
        r.measured !== null
          ? h(
              'rect',
              { key: `m${i}`, x, y: y(r.measured), width: bar, height: bottom - y(r.measured), fill: color, 'data-testid': 'enc-measured' },
              h('title', null, `${name}: ${formatNumber(r.measured)} ${unitLabel} measured`),
            )
          : null,
        r.forecast !== null
          ? h(
              'rect',
              {
                key: `f${i}`,
                x: x + bar + 4,
                y: y(r.forecast),
                width: bar,
                height: bottom - y(r.forecast),
                fill: 'url(#forecast-hatch)',
                stroke: color,
                strokeWidth: 2,
                strokeDasharray: '5 3',
                'data-testid': 'enc-forecast',
              },
              h('title', null, `${name}: ${formatNumber(r.forecast)} ${unitLabel} (estimated)`),
            )
          : null,
        h(
          'text',
          { key: `l${i}`, x: left + (i + 0.5) * band, y: bottom + 16, fontSize: 11, fill: 'var(--muted)', textAnchor: 'middle' },
          ...lines.map((line, j) => h('tspan', { key: j, x: left + (i + 0.5) * band, dy: j === 0 ? 0 : LINE_PX }, line)),
        ),
      ];
    }),
    ceiling !== null
      ? h(
          'g',
          { 'data-testid': 'enc-ceiling' },
          h('line', {
            x1: left,
            x2: right,
            y1: y(ceiling),
            y2: y(ceiling),
            stroke: 'var(--danger)',
            strokeDasharray: '6 4',
            strokeWidth: 2,
          }),
          h(
            'text',
            { x: right - 4, y: y(ceiling) - 6, fontSize: 12, fill: 'var(--danger)', textAnchor: 'end' },
            `cipher ceiling ${formatNumber(ceiling)} ${unitLabel}`,
          ),
        )
      : null,
  );
}
