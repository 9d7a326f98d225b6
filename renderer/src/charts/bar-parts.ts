// The pieces of the app's bar charts that recharts draws per bar, label and tick: plain SVG
// that says what it shows (data-testid, data-run, data-value), so tests and screen readers
// find them. createElement, not JSX, so the renderer's tests run them in Node.
import { createElement as h } from 'react';
import { labelLayout, wrapTickLabel, type BarLabelText } from '../view/compare-view.ts';

interface BarShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  fill?: string;
  value?: unknown;
  payload?: { test?: string; title?: string };
}

/** Bars as plain rects that say what they show. */
export function barShape(runIndex: number, chartType: string) {
  return function BarShape(props: BarShapeProps) {
    const { x = 0, y = 0, width = 0, height = 0, fill } = props;
    const value = (Array.isArray(props.value) ? props.value[1] : props.value) as number | undefined;
    return h('rect', {
      x,
      y,
      width: Math.max(0, width),
      height: Math.max(0, height),
      fill,
      'data-testid': 'bar',
      'data-group': chartType,
      'data-run': runIndex,
      'data-test': props.payload?.test,
      'data-title': props.payload?.title,
      'data-value': typeof value === 'number' ? value : undefined,
    });
  };
}

interface LabelProps {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  index?: number;
}

/**
 * Every bar says its value and its ratio to #1 above it, so a bar too short to see on any
 * scale still reads: on one line, value over ratio, or sideways over a narrow bar.
 */
export function barLabel(data: ReadonlyArray<{ labels: Array<BarLabelText | undefined> }>, runIndex: number) {
  return function BarLabel(props: LabelProps) {
    const label = props.index === undefined ? undefined : data[props.index]?.labels[runIndex];
    if (!label) return null;
    const width = Number(props.width ?? 0);
    const x = Number(props.x ?? 0) + width / 2;
    const y = Number(props.y ?? 0) - 4;
    const layout = labelLayout(label, width);
    const common = { fontSize: 10, fill: 'var(--text)', 'data-testid': 'bar-label', 'data-run': runIndex };
    const oneLine = `${label.value}${label.ratio ? ` ${label.ratio}` : ''}`;
    if (layout === 'sideways')
      return h('text', { ...common, x, y, textAnchor: 'start', dominantBaseline: 'central', transform: `rotate(-90 ${x} ${y})` }, oneLine);
    if (layout === 'two-lines' && label.ratio)
      return h(
        'text',
        { ...common, x, y: y - 12, textAnchor: 'middle' },
        h('tspan', { x }, label.value),
        h('tspan', { x, dy: '12' }, label.ratio),
      );
    return h('text', { ...common, x, y, textAnchor: 'middle' }, oneLine);
  };
}

/** Roughly how wide recharts draws each bar: 80 % of the category, split between the runs. */
export function barWidthPx(chartWidth: number, yAxisWidth: number, categories: number, runs: number): number {
  const band = (chartWidth - yAxisWidth - 24) / Math.max(1, categories);
  return (band * 0.8 - 4 * (runs - 1)) / Math.max(1, runs);
}

interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}

/** The category title, wrapped to its share of the axis (see wrapTickLabel). */
export function wrappedTick(widthPx: number) {
  return function WrappedTick(props: TickProps) {
    const lines = wrapTickLabel(String((props.payload?.value as string | number | undefined) ?? ''), widthPx);
    const x = Number(props.x ?? 0);
    return h(
      'text',
      { x, y: Number(props.y ?? 0) + 4, fontSize: 11, fill: 'var(--muted)', textAnchor: 'middle', 'data-testid': 'axis-tick' },
      ...lines.map((line, i) => h('tspan', { key: i, x, dy: i === 0 ? '0.71em' : '1.2em' }, line)),
    );
  };
}

export const tooltipStyle = { background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' };
