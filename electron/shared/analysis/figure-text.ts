// The one formatter of a test result's rate and latency figures, wherever one is printed: the
// CLI's run and show tables, compare (CLI, app, report) and the charts' labels, which all take
// the comparison's display. A figure its trust rules flagged is never printed bare: a noisy
// median carries the interval it is known within ("52.63 IOPS ±210 % (noisy)"), a figure that
// finished too fast to measure says so, so a table read alone cannot pass either for a steady figure.
import { isFailedResult, type LatencyNs, type TestResult } from '../model/results.ts';
import { formatIops, formatLatency, formatNumber, formatThroughput, type ThroughputUnit } from './units.ts';

export type RateMetric = 'bytesPerSec' | 'iops';

/** The rate trust flag that makes a figure's interval part of it (bench/aggregate.ts sets it). */
export const NOISY = 'noisy';

/** "±2.4 %", "±210 %": one decimal below 10 %, where it still says something. */
export function intervalText(relative: number): string {
  const pct = relative * 100;
  return `±${pct < 10 ? pct.toFixed(1) : formatNumber(Math.round(pct))} %`;
}

/**
 * What a flagged rate figure carries after its value, or '' for one that is not flagged.
 * The interval is the median's 95 % one (precision.ciRelative, on throughput; with a fixed block
 * size IOPS vary by the same proportion); a result without one (stored before it was kept)
 * gives its runs' coefficient of variation instead, named as such.
 */
export function rateFlagText(result: TestResult): string {
  const marks: string[] = [];
  if (result.warnings.some((w) => w.code === NOISY)) {
    const ci = result.precision?.ciRelative;
    if (ci != null) return ` ${intervalText(ci)} (noisy)${result.underResolved ? ' (under-resolved)' : ''}`;
    marks.push(result.cv == null ? 'noisy' : `noisy, CV ${(result.cv * 100).toFixed(1)} %`);
  }
  if (result.underResolved) marks.push('under-resolved');
  return marks.map((m) => ` (${m})`).join('');
}

/**
 * A result's throughput or IOPS as printed everywhere: with its unit, its flags and interval,
 * or why there is none ("failed (no figure)", "+++++ (too fast to measure)", "— (not reported)").
 */
export function rateFigureText(
  result: TestResult,
  metric: RateMetric,
  unit: ThroughputUnit = 'MB',
  options: { seeks?: boolean } = {},
): string {
  const value = result[metric];
  if (value == null) {
    if (isFailedResult(result)) return 'failed (no figure)';
    return result.underResolved ? '+++++ (too fast to measure)' : '— (not reported)';
  }
  const text = metric === 'bytesPerSec' ? formatThroughput(value, unit) : formatIops(value, options.seeks ? 'seeks/s' : 'IOPS');
  return text + rateFlagText(result);
}

/** One latency figure of a result: "66.0 µs", or "—" when the source did not report it. */
export function latencyFigureText(latency: LatencyNs | null, key: keyof LatencyNs): string {
  const value = latency?.[key];
  return value == null ? '—' : formatLatency(value);
}
