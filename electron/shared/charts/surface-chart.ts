// A disk's surface (issue 41 item 3): its read speed along the disk, outer tracks (0 %) to inner
// (100 %), one line per run, the slowest zone of each shaded in its colour (a disk of one speed: none). x is the share of
// each disk's bytes, so the old disk's curve lies beside the new one's whatever their sizes; the
// note names each run's slowest zone in bytes.
import { surfaceOfResult, SURFACE_TEST, type SurfaceAnalysis } from '../analysis/surface.ts';
import { bytesPerSecTo, formatBytes, formatThroughput, throughputLabel } from '../analysis/units.ts';
import type { ChartInput, SeriesChartModel, SeriesMark } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';

const percentOf = (bytes: number, a: SurfaceAnalysis) => (100 * bytes) / a.deviceBytes;

export const surfaceChart: ChartType = {
  id: 'surface',
  draws:
    "a series over the disk's position: the read speed from the outer tracks (0 %) to the inner (100 %), one line per run, each run's slowest zone shaded",
  inReport: true,
  claims: ({ comparison }) => (comparison.rows.some((r) => r.test === SURFACE_TEST) ? [SURFACE_TEST] : []),
  build({ records, unit }: ChartInput): SeriesChartModel[] {
    const surfaces = records.map((r) => {
      const result = r.results.find((x) => x.test === SURFACE_TEST);
      return result ? surfaceOfResult(result) : null;
    });
    // Each point at the middle of the bytes it read.
    const lines = surfaces.flatMap((a, runIndex) =>
      a && a.points.length
        ? [{ runIndex, points: a.points.map((p) => ({ x: percentOf(p.offset + p.bytes / 2, a), y: bytesPerSecTo(p.bytesPerSec, unit) })) }]
        : [],
    );
    if (lines.length === 0) return [];
    const marks: SeriesMark[] = [];
    const notes: string[] = [];
    surfaces.forEach((a, runIndex) => {
      if (!a || a.slowest === null) return;
      const z = a.zones[a.slowest]!;
      const speed = formatThroughput(z.bytesPerSec, unit);
      const label = records[runIndex]!.label;
      const who = `#${runIndex + 1}${label ? ` ${label}` : ''}`;
      // A disk of one zone has no slowest stretch to mark: shading all of it would hide the rest.
      if (a.zones.length === 1) {
        notes.push(`${who}: one speed across the disk, ${speed}`);
        return;
      }
      const tag = `#${runIndex + 1} slowest zone: ${speed}`;
      marks.push({ runIndex, x: [percentOf(z.start, a), percentOf(z.end, a)], tag, label: tag });
      notes.push(
        `${who}: slowest ${speed} from ${formatBytes(z.start)} to ${formatBytes(z.end)} (${percentOf(z.start, a).toFixed(0)}–${percentOf(z.end, a).toFixed(0)} %)`,
      );
    });
    return [
      {
        shape: 'series',
        id: 'surface',
        type: 'surface',
        title: 'Read speed across the disk, outer to inner tracks',
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        markers: false,
        wide: true,
        // Every 10 %: the note names each slowest zone in % of the disk ("0–40 %"), found on it.
        x: {
          label: 'position on the disk (% of its bytes, outer → inner)',
          format: 'number',
          scale: 'linear',
          domain: [0, 100],
          ticks: Array.from({ length: 11 }, (_, i) => i * 10),
        },
        lines,
        marks,
        ...(notes.length ? { note: notes.join('; ') } : {}),
      },
    ];
  },
};
