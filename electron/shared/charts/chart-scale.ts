// The value axis's rule, one for every chart: Compare's charts, the encryption chart, the Live
// run chart's threshold and the printed report all decide linear or log here. The report drew
// its bars linear at a ×1,051 span while Compare went log (issue 37): one function, no copy.
import { formatNumber } from '../analysis/units.ts';
import type { ChartModel } from './chart-model.ts';

export type ScaleMode = 'auto' | 'linear' | 'log';

/**
 * Past this spread (largest / smallest value) a linear axis draws the small bars as nothing:
 * 42 MB/s beside 6,332 MB/s is a 0.2-pixel bar on a 300-pixel chart. "auto" then uses a
 * log axis, on which every bar keeps a readable height.
 */
export const AUTO_LOG_SPREAD = 10;

export interface ScaleChoice {
  log: boolean;
  /** Said next to the chart's title: why this axis ("log scale: values span ×150"). */
  note: string;
}

const positives = (data: readonly object[], keys: string[]) =>
  data.flatMap((d) => keys.map((k) => (d as Record<string, unknown>)[k])).filter((v): v is number => typeof v === 'number' && v > 0);

export function chooseScale(data: readonly object[], keys: string[], mode: ScaleMode): ScaleChoice {
  const values = positives(data, keys);
  const spread = values.length > 0 ? Math.max(...values) / Math.min(...values) : 1;
  const span = `values span ×${formatNumber(Math.round(spread))}`;
  if (mode === 'log') return { log: true, note: 'log scale' };
  if (mode === 'linear')
    return { log: false, note: spread >= AUTO_LOG_SPREAD ? `linear scale: ${span}, small bars may not show` : 'linear scale' };
  return spread >= AUTO_LOG_SPREAD ? { log: true, note: `log scale: ${span}` } : { log: false, note: 'linear scale' };
}

/** A chart model's value axis: over its bars' values, or its lines' points. The report asks for 'auto'. */
export function chartScale(chart: Exclude<ChartModel, { shape: 'table' }>, mode: ScaleMode): ScaleChoice {
  const values =
    chart.shape === 'bars'
      ? chart.categories.flatMap((c) => c.bars.map((b) => ({ v: b.value ?? undefined })))
      : chart.lines.flatMap((l) => l.points.map((p) => ({ v: p.y })));
  return chooseScale(values, ['v'], mode);
}

/** Log axes cannot show 0 or nothing: the domain spans the positive values with headroom. */
export function logDomain(data: readonly object[], keys: string[]): [number, number] {
  const values = positives(data, keys);
  if (values.length === 0) return [1, 10];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))];
}
