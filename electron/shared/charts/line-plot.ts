// Lines over an x axis as plain SVG at a given width: the drawing under every line chart, the
// chart models' series (series-svg.ts: Compare and the report) and the Live run chart. No hooks
// and no DOM, so react-dom/server prints it for the report; colours are CSS variables. recharts
// drew these before; what it gave beyond this (a hover tooltip) is each line's and point's
// <title>, and each chart's figures as a table beside it.
import { createElement as h, type ReactElement } from 'react';
import { fitTicks, TICK_CHAR_PX } from './axis-ticks.ts';

export interface PlotLine {
  key: string | number;
  /** x in axis positions (log2 of a block size on a log2 axis), y in the value's unit. */
  points: ReadonlyArray<{ x: number; y: number }>;
  stroke: string;
  dash: string;
  /** Dots on the points (a sweep's few sizes), each with its figure as a title. */
  markers: boolean;
  /** What the line is, as its hover title: "#2 new disk". */
  name: string;
  /** Test hooks on the path and its dots (data-testid, data-run). */
  attrs: Record<string, string | number>;
}

/**
 * A stretch of x marked on a run's line, in axis positions (a disk's slowest zone, a steady-state
 * window): shaded in its colour, full height, or over its band of values alone when it has one,
 * with its fitted line across it. Above the plot a bar of its colour in a lane of its own, tagged:
 * where two runs' stretches overlap, the shades mix into one muddy colour, and only the bars tell
 * which run's stretch is which.
 */
export interface PlotMark {
  key: string | number;
  from: number;
  to: number;
  fill: string;
  /** Beside its bar above the plot: "#1 slowest zone: 8.39 MB/s", "steady: rounds 3–7". */
  tag: string;
  /** Whole, as its hover title. */
  title: string;
  /** Low … high in the value's unit: the values it was judged against, shaded alone. */
  band?: [number, number];
  /** The fitted line's values at `from` and `to`. */
  fit?: [number, number];
  /** Met its rule: a filled band; not met: its outline alone, dashed. Undefined: no rule. */
  met?: boolean;
  /** Test hooks on its shade and its bar (data-testid, data-run). */
  attrs: Record<string, string | number>;
}

export interface PlotAxes {
  /** Along x: the span and the ticks, in axis positions, and how a position reads. */
  x: { domain: [number, number]; ticks: readonly number[]; label: (position: number) => string; title?: string };
  /** Up y: log or linear, its span and ticks, and how a value reads. */
  y: { log: boolean; domain: [number, number]; ticks: readonly number[]; label: (value: number) => string };
}

const FONT = 11;
/** right: room for half the last x label, centred on the plot's end ("64 MiB"); wider ones take more. */
const MARGIN = { top: 10, right: 24, bottom: 8 };
/** Under the plot: the tick labels, then the axis title. */
const X_TICKS_PX = 20;
const X_TITLE_PX = 14;
/** Above the plot, one lane per marked stretch: its bar and its tag. */
const SPAN_LANE_PX = 16;
const SPAN_BAR_PX = 3;
/** Between the last lane and the plot, so the last bar is not read as the plot's top edge. */
const SPAN_GAP_PX = 6;

/** A pixel position to a tenth: the SVG stays short and the same from run to run. */
const r1 = (v: number) => Math.round(v * 10) / 10;

/** The plot's left edge: room for the longest value label. */
export function plotLeft(yLabels: readonly string[]): number {
  return Math.ceil(8 + Math.max(2, ...yLabels.map((l) => l.length)) * TICK_CHAR_PX);
}

/** The width left for the plot once the value labels have theirs: what x's ticks are fitted to. */
export function plotWidth(width: number, yLabels: readonly string[]): number {
  return Math.max(40, width - plotLeft(yLabels) - MARGIN.right);
}

/** Those of `ticks` whose labels fit side by side across the plot. */
export function fittedXTicks(ticks: readonly number[], domain: [number, number], widthPx: number, label: (p: number) => string): number[] {
  const [lo, hi] = domain;
  return fitTicks(ticks, label, (p) => (hi > lo ? ((p - lo) / (hi - lo)) * widthPx : 0));
}

export function LinePlot({
  width,
  plotHeight,
  axes,
  lines,
  marks = [],
  className,
}: {
  width: number;
  plotHeight: number;
  axes: PlotAxes;
  lines: readonly PlotLine[];
  marks?: readonly PlotMark[];
  className: string;
}): ReactElement {
  const { x, y } = axes;
  const yLabels = y.ticks.map(y.label);
  const left = plotLeft(yLabels);
  const lastX = x.ticks.length ? x.label(x.ticks.at(-1)!).length * TICK_CHAR_PX : 0;
  const right = left + plotWidth(width, yLabels) - Math.max(0, Math.ceil(lastX / 2) + 2 - MARGIN.right);
  const top = MARGIN.top + (marks.length ? marks.length * SPAN_LANE_PX + SPAN_GAP_PX : 0);
  const bottom = top + plotHeight;
  const height = bottom + X_TICKS_PX + (x.title ? X_TITLE_PX : 0) + MARGIN.bottom;
  const [xLo, xHi] = x.domain;
  const px = (p: number) => left + ((p - xLo) / (xHi - xLo || 1)) * (right - left);
  const [yLo, yHi] = y.log ? (y.domain.map(Math.log10) as [number, number]) : y.domain;
  const py = (v: number) => {
    const at = y.log ? Math.log10(Math.max(v, y.domain[0])) : v;
    return bottom - ((at - yLo) / (yHi - yLo || 1)) * plotHeight;
  };
  return h(
    'svg',
    { width, height, viewBox: `0 0 ${width} ${height}`, className },
    ...y.ticks.map((t, i) =>
      h(
        'g',
        { key: `y${t}` },
        h('line', { x1: left, x2: right, y1: r1(py(t)), y2: r1(py(t)), stroke: 'var(--grid)', strokeDasharray: '3 3' }),
        h(
          'text',
          { x: left - 6, y: r1(py(t) + 4), fontSize: FONT, fill: 'var(--muted)', textAnchor: 'end', 'data-testid': 'y-tick' },
          yLabels[i],
        ),
      ),
    ),
    // Behind the axes and lines: shaded, so the line over it stays readable.
    ...marks.map((mark, lane) => plotMark(mark, lane, { px, py, xDomain: [xLo, xHi], top, plotHeight, right })),
    h('line', { key: 'y-axis', x1: left, x2: left, y1: top, y2: bottom, stroke: 'var(--muted)', 'data-testid': 'y-axis' }),
    h('line', { key: 'x-axis', x1: left, x2: right, y1: bottom, y2: bottom, stroke: 'var(--muted)', 'data-testid': 'x-axis' }),
    ...x.ticks.map((t) =>
      h(
        'text',
        { key: `x${t}`, x: r1(px(t)), y: bottom + 16, fontSize: FONT, fill: 'var(--muted)', textAnchor: 'middle', 'data-testid': 'x-tick' },
        x.label(t),
      ),
    ),
    x.title
      ? h(
          'text',
          { key: 'x-title', x: right, y: bottom + X_TICKS_PX + 11, fontSize: FONT, fill: 'var(--muted)', textAnchor: 'end' },
          x.title,
        )
      : null,
    ...lines.map((line) =>
      h(
        'g',
        { key: line.key },
        h(
          'path',
          {
            d: line.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(px(p.x))},${r1(py(p.y))}`).join(''),
            fill: 'none',
            stroke: line.stroke,
            strokeWidth: 2,
            // Told apart without colour too (greyscale, colour blindness): a dash per line.
            strokeDasharray: line.dash || undefined,
            className: 'plot-line',
            ...line.attrs,
          },
          h('title', null, line.name),
        ),
        ...(line.markers
          ? line.points.map((p) =>
              h(
                'circle',
                {
                  key: p.x,
                  cx: r1(px(p.x)),
                  cy: r1(py(p.y)),
                  r: 3,
                  fill: line.stroke,
                  className: 'plot-point',
                  'data-x': p.x,
                  'data-value': p.y,
                },
                h('title', null, `${line.name}: ${x.label(p.x)}, ${y.label(p.y)}`),
              ),
            )
          : []),
      ),
    ),
  );
}

interface PlotFrame {
  px: (p: number) => number;
  py: (v: number) => number;
  xDomain: [number, number];
  top: number;
  plotHeight: number;
  right: number;
}

/**
 * A marked stretch: its shade (full height, or its band), its fitted line, and in its lane above
 * the plot its bar and tag over the bar, from the bar's start, or ending at the plot's right edge
 * where it would run past (the last rounds' window).
 */
function plotMark(mark: PlotMark, lane: number, { px, py, xDomain: [xLo, xHi], top, plotHeight, right }: PlotFrame): ReactElement {
  const [x0, x1] = [r1(px(Math.max(xLo, mark.from))), r1(px(Math.min(xHi, mark.to)))];
  const width = Math.max(1, r1(x1 - x0));
  const [shadeTop, shadeBottom] = mark.band ? [r1(py(mark.band[1])), r1(py(mark.band[0]))] : [top, top + plotHeight];
  const outlined = mark.met === false;
  const laneTop = MARGIN.top + lane * SPAN_LANE_PX;
  const place = x0 + mark.tag.length * TICK_CHAR_PX <= right ? { x: x0, textAnchor: 'start' } : { x: right, textAnchor: 'end' };
  return h(
    'g',
    { key: `mark${mark.key}`, 'data-testid': 'plot-region', ...(mark.met === undefined ? {} : { 'data-met': mark.met ? 'yes' : 'no' }) },
    h('title', null, mark.title),
    h('rect', {
      x: x0,
      y: shadeTop,
      width,
      height: Math.max(1, r1(shadeBottom - shadeTop)),
      fill: outlined ? 'none' : mark.fill,
      fillOpacity: outlined ? undefined : 0.15,
      // A band is outlined, so its edges read against the line; a failed one by its outline alone, dashed.
      ...(mark.band ? { stroke: mark.fill, strokeOpacity: 0.7, strokeDasharray: outlined ? '4 3' : undefined } : {}),
      className: 'plot-span',
      ...mark.attrs,
    }),
    mark.fit
      ? h('line', {
          x1: x0,
          x2: x1,
          y1: r1(py(mark.fit[0])),
          y2: r1(py(mark.fit[1])),
          stroke: 'var(--text)',
          strokeWidth: 1.5,
          'data-testid': 'region-fit',
        })
      : null,
    h('rect', {
      x: x0,
      y: laneTop + SPAN_LANE_PX - SPAN_BAR_PX - 1,
      width,
      height: SPAN_BAR_PX,
      fill: mark.fill,
      ...mark.attrs,
      'data-testid': 'span-bar',
    }),
    h('text', { ...place, y: laneTop + FONT - 1, fontSize: FONT - 1, fill: 'var(--text)', 'data-testid': 'span-tag' }, mark.tag),
  );
}
