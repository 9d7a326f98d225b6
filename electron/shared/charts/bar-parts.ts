// A bar's label in the app's bar chart (bar-svg.ts): plain SVG that says what it shows
// (data-testid, data-run), so tests and screen readers find it. createElement, not JSX, so
// the renderer's tests run it in Node.
import { createElement as h } from 'react';
import { labelLayout, type BarLabelText } from './compare-view.ts';

/**
 * A bar's value and its ratio to #1 above it, so a bar too short to see on any scale still
 * reads: on one line, value over ratio, or sideways over a narrow bar.
 */
export function BarLabel(props: { label: BarLabelText; run: number; x: number; y: number; width: number }) {
  const { label, run, width } = props;
  const x = props.x + width / 2;
  const y = props.y - 4;
  const layout = labelLayout(label, width);
  const common = { fontSize: 10, fill: 'var(--text)', 'data-testid': 'bar-label', 'data-run': run };
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
}
