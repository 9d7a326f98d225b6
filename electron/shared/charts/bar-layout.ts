// Where every bar, label and tick of the app's bar chart goes: plain arithmetic on the chart
// model's rows, no DOM and no chart library, so it is tested in Node.
//
// recharts drew these charts before. At 6 runs × 20 tests it spent most of a Compare tick in
// its own store and text measuring (issue 22, item 9), and its category axis could only cut
// titles short when the bars grew thin ("sequential read 1M…" for both Q8T1 and Q1T1, issue
// 29, item 2). So there are two layouts:
// - columns: a bar per run standing in each test's band, the run's number under it, the test's
//   title wrapped under the axis, used while every bar is wide enough for its number and every
//   title fits its band;
// - rows: each test a heading, under it one horizontal bar per run with its number before and
//   its value after (the report's layout), used otherwise: at 390 px or with many tests. A row
//   never runs out of room, so nothing is cut or overlaps at any width.
import { logTicks, niceTicks } from './axis-ticks.ts';
import { chartDomain, labelRoomPx, LABEL_CHAR_PX, wrapTickLabel, type BarDatum, type BarLabelText } from './compare-view.ts';

const MARGIN = { top: 8, right: 16, bottom: 8, left: 8 };
const Y_AXIS_PX = 80;
/** The columns layout's height before its titles take more than one line. */
const BASE_HEIGHT = 300;
const TICK_LINE_PX = 14;
/** Under each column: the run's number ("#2"), 9 px. */
const RUN_NUMBER_PX = 12;
/** A column narrower than this has no room for its run's number: the chart is laid out in rows. */
const MIN_COLUMN_PX = 12;
/** The rows layout: a test's title lines, then a row per run. */
const ROW_PX = 16;
const ROW_BAR_PX = 12;
const ROW_GAP_PX = 10;
const RUN_NUMBER_WIDTH_PX = 26;

export interface PlacedBar {
  run: number;
  category: number;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label: BarLabelText | undefined;
}

export interface Tick {
  value: number;
  /** Along the value axis: y in columns, x in rows. */
  at: number;
}

interface LayoutBase {
  width: number;
  height: number;
  bars: PlacedBar[];
}

export interface ColumnsLayout extends LayoutBase {
  orientation: 'columns';
  plot: { left: number; right: number; top: number; bottom: number };
  band: number;
  barWidth: number;
  /** Each test's title under the axis, wrapped to its band, centred at x. */
  titles: Array<{ lines: string[]; x: number }>;
  valueTicks: Tick[];
}

export interface RowsLayout extends LayoutBase {
  orientation: 'rows';
  /** Where bars start (after the run numbers) and the longest may end (before its label). */
  plot: { left: number; right: number };
  /** Each test's title above its rows, wrapped to the chart's width; y of its first line's baseline. */
  titles: Array<{ lines: string[]; y: number }>;
}

export type BarLayout = ColumnsLayout | RowsLayout;

const valueOf = (d: BarDatum, run: number) => d[`r${run}`];
const drawable = (v: number | undefined, log: boolean): v is number =>
  typeof v === 'number' && Number.isFinite(v) && (log ? v > 0 : v >= 0);

/** Roughly how wide each column is: 80 % of the test's band, split between the runs, 4 px apart. */
function columnWidthPx(chartWidth: number, categories: number, runs: number): number {
  const band = (chartWidth - MARGIN.left - Y_AXIS_PX - MARGIN.right) / Math.max(1, categories);
  return (band * 0.8 - 4 * (runs - 1)) / Math.max(1, runs);
}

/** Round steps (1, 2 or 5 × 10^n) from zero up to at most max: the series axes' steps, none past the top. */
export function linearTicks(max: number, count = 5): number[] {
  return niceTicks(max, count).filter((t) => t <= max * (1 + 1e-9));
}

/** A value's place along an axis from `from` (the domain's low end) to `to` (its high end). */
function scaler(domain: [number, number], log: boolean, from: number, to: number): (v: number) => number {
  const [lo, hi] = log ? [Math.log10(domain[0]), Math.log10(domain[1])] : domain;
  const span = hi - lo || 1;
  return (v) => {
    const p = ((log ? Math.log10(v) : v) - lo) / span;
    return from + Math.min(1, Math.max(0, p)) * (to - from);
  };
}

export function layoutBars(data: readonly BarDatum[], runs: number, width: number, log: boolean): BarLayout {
  const keys = Array.from({ length: runs }, (_, i) => `r${i}`);
  const band = (width - MARGIN.left - Y_AXIS_PX - MARGIN.right) / Math.max(1, data.length);
  const barWidth = columnWidthPx(width, data.length, runs);
  const titles = data.map((d) => wrapTickLabel(d.title, band - 8));
  const titlesFit = titles.every((lines) => !lines.at(-1)!.endsWith('…'));
  if (barWidth >= MIN_COLUMN_PX && titlesFit) return columns(data, runs, width, log, keys, band, barWidth, titles);
  return rows(data, runs, width, log, keys);
}

function columns(
  data: readonly BarDatum[],
  runs: number,
  width: number,
  log: boolean,
  keys: string[],
  band: number,
  barWidth: number,
  titleLines: string[][],
): ColumnsLayout {
  const tickLines = Math.max(1, ...titleLines.map((l) => l.length));
  const height = BASE_HEIGHT + TICK_LINE_PX * (tickLines - 1) + RUN_NUMBER_PX;
  const plot = { left: MARGIN.left + Y_AXIS_PX, right: width - MARGIN.right, top: MARGIN.top, bottom: 0 };
  plot.bottom = height - MARGIN.bottom - (TICK_LINE_PX * tickLines + 12) - RUN_NUMBER_PX;
  const room = labelRoomPx(data, barWidth) / (plot.bottom - plot.top);
  const domain = chartDomain(data, keys, log, room);
  const y = scaler(domain, log, plot.bottom, plot.top);
  const bars: PlacedBar[] = [];
  data.forEach((d, category) => {
    for (let run = 0; run < runs; run++) {
      const value = valueOf(d, run);
      if (!drawable(value, log)) continue;
      const top = y(value);
      bars.push({
        run,
        category,
        value,
        x: plot.left + category * band + band * 0.1 + run * (barWidth + 4),
        y: top,
        width: barWidth,
        height: plot.bottom - top,
        label: d.labels[run],
      });
    }
  });
  const ticks = log ? logTicks(domain[0], domain[1]) : linearTicks(domain[1]);
  return {
    orientation: 'columns',
    width,
    height,
    bars,
    plot,
    band,
    barWidth,
    titles: titleLines.map((lines, i) => ({ lines, x: plot.left + (i + 0.5) * band })),
    valueTicks: ticks.map((value) => ({ value, at: y(value) })),
  };
}

function rows(data: readonly BarDatum[], runs: number, width: number, log: boolean, keys: string[]): RowsLayout {
  const labelText = (l: BarLabelText | undefined) => (l ? `${l.value}${l.ratio ? ` ${l.ratio}` : ''}` : '');
  const longest = Math.max(0, ...data.flatMap((d) => d.labels.map((l) => labelText(l).length)));
  const plot = { left: RUN_NUMBER_WIDTH_PX, right: Math.max(RUN_NUMBER_WIDTH_PX + 40, width - MARGIN.right - longest * LABEL_CHAR_PX - 6) };
  // Linear from zero unless the chosen scale is log: no label room is needed above a row.
  const domain = chartDomain(data, keys, log, 0);
  const x = scaler(domain, log, plot.left, plot.right);
  const bars: PlacedBar[] = [];
  const titles: RowsLayout['titles'] = [];
  let top = 0;
  data.forEach((d, category) => {
    const lines = wrapTickLabel(d.title, width - MARGIN.right, 6.2, 4);
    titles.push({ lines, y: top + 11 });
    top += lines.length * TICK_LINE_PX + 2;
    for (let run = 0; run < runs; run++) {
      const value = valueOf(d, run);
      if (!drawable(value, log)) continue;
      const end = x(value);
      // A bar that is there but tiny keeps a visible pixel: its value is written beside it.
      const length = value > 0 ? Math.max(1, end - plot.left) : 0;
      bars.push({
        run,
        category,
        value,
        x: plot.left,
        y: top + (ROW_PX - ROW_BAR_PX) / 2,
        width: length,
        height: ROW_BAR_PX,
        label: d.labels[run],
      });
      top += ROW_PX;
    }
    top += ROW_GAP_PX;
  });
  return { orientation: 'rows', width, height: Math.max(top, 40), bars, plot, titles };
}
