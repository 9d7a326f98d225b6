// The cache curve: from an access-curve run (the recorder's trace, analysis/access-trace.ts), the
// share of the bytes read or written that an LRU cache of each size would have served, a line
// per run over cache size (log2): how big an SSD cache (bcache, lvmcache) covers the working set.
import { ACCESS_CURVE_TEST, curveOfResult } from '../analysis/access-trace.ts';
import type { ChartInput, SeriesChartModel } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';

export const cacheCurveChart: ChartType = {
  id: 'cache-curve',
  draws:
    'a series over cache size: the share of the bytes read or written that an LRU cache of each size would have served, from recorded file accesses (access-curve runs), one line per run',
  inReport: true,
  build({ records }: ChartInput): SeriesChartModel[] {
    const curves = records.map((r) => {
      const result = r.results.find((t) => t.test === ACCESS_CURVE_TEST);
      return result ? curveOfResult(result) : null;
    });
    if (!curves.some((c) => c && c.curve.points.length > 0)) return [];
    return [
      {
        shape: 'series',
        id: 'cache-curve',
        type: 'cache-curve',
        title: 'Bytes an LRU cache would have served, by cache size (estimated from the recorded accesses)',
        unitLabel: '% of bytes read or written',
        direction: 'higher',
        valueFormat: 'number',
        markers: true,
        wide: true,
        x: { label: 'cache size', format: 'bytes', scale: 'log2' },
        lines: curves.flatMap((kept, runIndex) =>
          kept ? [{ runIndex, points: kept.curve.points.map((p) => ({ x: p.cacheBytes, y: p.hitRatio * 100 })) }] : [],
        ),
      },
    ];
  },
};
