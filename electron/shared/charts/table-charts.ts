// Chart types drawn as small tables: figures that read right only in a published shape. Today
// the seed's 2×2 of the discard mount option (analysis/discard-table.ts): per pair of runs,
// mount option down, extract + sync and delete + sync across, what discard costs below.
import { discardTable } from '../analysis/discard-table.ts';
import type { ChartType } from './chart-registry.ts';
import type { TableChartModel } from './chart-model.ts';

export const discardTableChart: ChartType = {
  id: 'discard-table',
  draws:
    "runs of the discard experiment (discard-cost's, the 2013 references) as the seed's table: without and with discard × extract + sync and delete + sync, seconds, and what discard costs",
  inReport: true,
  build({ records }) {
    const pairs = discardTable(records);
    if (pairs.length === 0) return [];
    const chart: TableChartModel = {
      id: 'discard-table',
      type: 'discard-table',
      shape: 'table',
      title: 'The cost of online discard',
      unitLabel: 's',
      direction: 'lower',
      wide: true,
      // One heading over every group: the tree's "extract", unless a big file's "write" is among them.
      columns: [
        'mount option',
        pairs.some((p) => p.phases[0] !== 'extract + sync') ? 'extract or write + sync' : 'extract + sync',
        'delete + sync',
      ],
      groups: pairs.map((p, i) => ({
        key: `pair-${i}`,
        title: `${p.title} — ${p.testTitle}`,
        rows: [
          ...p.rows.map((r) => ({ key: `run-${r.runIndex}`, title: r.option, cells: [r.extract, r.delete] })),
          { key: 'cost', title: 'discard costs', cells: [p.cost.extract, p.cost.delete], emphasis: true },
        ],
        notes: [...(p.fstrim ? [`fstrim afterwards: ${p.fstrim.seconds.display}, ${p.fstrim.trimmed.display} trimmed.`] : []), ...p.notes],
      })),
    };
    return [chart];
  },
};
