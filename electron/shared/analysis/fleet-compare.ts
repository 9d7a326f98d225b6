// The fleet view (issue #26 item 3): one row per host, the fleet's median and 10th/90th
// percentiles per figure, the hosts far from the rest named, and an upgrade verdict per host.
// Pure and linear in hosts × tests (a sort per figure), so 1,000 hosts stay well under a second.
//
// Rules, one each, said where they are used:
//  - A host's device class comes from its figures, not from fio (fio's client reports no
//    rotational flag): random 4 KiB reads at depth 1 under HDD_MAX_IOPS is a hard disk. It is
//    labelled "from the figures".
//  - Percentiles: linear interpolation between order statistics (type 7, what numpy and
//    spreadsheets give), so the 10th of 10 values lies between the first two.
//  - Outliers: outside the Tukey fences (1.5 × IQR) of the logarithms. Disk figures span
//    orders of magnitude (an HDD's 150 IOPS against an SSD's 40,000): on a linear scale every
//    HDD in a fleet of SSDs would be "low" and no fast SSD ever "high".
//  - fio gives one mean per job: no figure here has a run-to-run spread, and each row says so.
import type { RunRecord, TestResult } from '../model/results.ts';
import { groupedDecimals } from './units.ts';
import { percentile } from './statistics.ts';

export const FLEET_FIGURES = [
  { id: 'seqRead', label: 'sequential read', test: 'seq1m-q8t1-read', metric: 'bytesPerSec' },
  { id: 'seqWrite', label: 'sequential write', test: 'seq1m-q8t1-write', metric: 'bytesPerSec' },
  { id: 'rndRead', label: 'random 4K read QD1', test: 'rnd4k-q1t1-read', metric: 'iops' },
  { id: 'rndWrite', label: 'random 4K write QD1', test: 'rnd4k-q1t1-write', metric: 'iops' },
  { id: 'seeks', label: 'seeks', test: 'seeks', metric: 'seeks' },
] as const;
export type FleetFigureId = (typeof FLEET_FIGURES)[number]['id'];

/** Random 4 KiB reads at depth 1 below this are a hard disk's (a 7,200 rpm disk does ~100–200; the slowest SATA SSD thousands). */
export const HDD_MAX_IOPS = 400;

export interface FleetRow {
  host: string;
  runId: number | null;
  device: string | null;
  deviceClass: 'hdd' | 'ssd' | 'unknown';
  figures: Partial<Record<FleetFigureId, number>>;
  /** Figures of this host outside the fleet's fences, with which side. */
  outliers: Array<{ figure: FleetFigureId; side: 'low' | 'high' }>;
  verdict: string;
  /** Why a figure may not be what it seems; always at least the single-run note for fio. */
  flags: string[];
}

export interface FleetStat {
  figure: FleetFigureId;
  hosts: number;
  p10: number;
  median: number;
  p90: number;
}

export interface FleetComparison {
  rows: FleetRow[];
  stats: FleetStat[];
  summary: string;
  /** Hosts that ran more than once: the newest run is used, the others named. */
  superseded: string[];
}

function figureOf(result: TestResult | undefined, metric: 'bytesPerSec' | 'iops' | 'seeks'): number | null {
  if (!result) return null;
  if (metric === 'seeks') return result.iops ?? null; // a seeks test's rate is seeks/s in iops
  return result[metric] ?? null;
}

function hostOf(run: RunRecord): string {
  return run.sourceMeta['fio.host'] ?? run.label;
}

/** Coarser than formatRatio (a fleet's single fio means): "×4.9", "×133", "×1,600". */
function ratioText(x: number): string {
  return `×${groupedDecimals(x, x >= 10 ? 0 : 1)}`;
}

export function compareFleet(runs: readonly RunRecord[]): FleetComparison {
  // The newest run of each host stands for it.
  const byHost = new Map<string, RunRecord>();
  const superseded: string[] = [];
  for (const run of runs) {
    const host = hostOf(run);
    const had = byHost.get(host);
    if (had) superseded.push(host);
    if (!had || had.createdAt < run.createdAt) byHost.set(host, run);
  }
  const rows: FleetRow[] = [];
  for (const [host, run] of byHost) {
    const byTest = new Map(run.results.map((r) => [r.test, r]));
    const figures: FleetRow['figures'] = {};
    for (const f of FLEET_FIGURES) {
      const v = figureOf(byTest.get(f.test), f.metric);
      if (v !== null && v > 0) figures[f.id] = v;
    }
    const rnd = figures.rndRead;
    const deviceClass = rnd === undefined ? 'unknown' : rnd < HDD_MAX_IOPS ? 'hdd' : 'ssd';
    const flags: string[] = [];
    if (run.sourceFormat === 'fio') flags.push('one fio run per test: no run-to-run spread, a single mean');
    if (deviceClass !== 'unknown') flags.push('device class from the figures (random 4K QD1 reads), not reported by the host');
    for (const w of run.warnings) flags.push(w.message);
    rows.push({
      host,
      runId: run.id ?? null,
      device: run.sourceMeta['fio.disk'] ?? null,
      deviceClass,
      figures,
      outliers: [],
      verdict: '',
      flags,
    });
  }

  const stats: FleetStat[] = [];
  for (const f of FLEET_FIGURES) {
    const values = rows.flatMap((r) => (r.figures[f.id] === undefined ? [] : [r.figures[f.id] as number])).sort((a, b) => a - b);
    if (values.length === 0) continue;
    stats.push({
      figure: f.id,
      hosts: values.length,
      p10: percentile(values, 0.1),
      median: percentile(values, 0.5),
      p90: percentile(values, 0.9),
    });
    if (values.length < 4) continue; // fences of three values say nothing
    const logs = values.map(Math.log);
    const q1 = percentile(logs, 0.25);
    const q3 = percentile(logs, 0.75);
    const low = q1 - 1.5 * (q3 - q1);
    const high = q3 + 1.5 * (q3 - q1);
    for (const row of rows) {
      const v = row.figures[f.id];
      if (v === undefined) continue;
      if (Math.log(v) < low) row.outliers.push({ figure: f.id, side: 'low' });
      else if (Math.log(v) > high) row.outliers.push({ figure: f.id, side: 'high' });
    }
  }

  // What an SSD gives: the fleet's own SSDs' medians, divided by each HDD's figure.
  const ssdMedian = (id: FleetFigureId): number | null => {
    const v = rows.flatMap((r) => (r.deviceClass === 'ssd' && r.figures[id] !== undefined ? [r.figures[id]] : [])).sort((a, b) => a - b);
    return v.length === 0 ? null : percentile(v, 0.5);
  };
  const ssdSeq = ssdMedian('seqRead');
  const ssdRnd = ssdMedian('rndRead');
  const seqGains: number[] = [];
  const rndGains: number[] = [];
  for (const row of rows) {
    if (row.deviceClass === 'unknown') row.verdict = 'not judged: no random 4K QD1 read figure to tell the disk';
    else if (row.deviceClass === 'ssd') row.verdict = 'on an SSD already: no upgrade needed for speed';
    else if (ssdSeq === null || ssdRnd === null || row.figures.seqRead === undefined || row.figures.rndRead === undefined) {
      row.verdict = 'on a hard disk; not judged: no SSD in the fleet measured with the same tests to compare against';
    } else {
      const seq = ssdSeq / row.figures.seqRead;
      const rnd = ssdRnd / row.figures.rndRead;
      seqGains.push(seq);
      rndGains.push(rnd);
      row.verdict = `on a hard disk: an SSD like the fleet's would give ${ratioText(seq)} sequential and ${ratioText(rnd)} random reads`;
    }
  }
  const hdds = rows.filter((r) => r.deviceClass === 'hdd').length;
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      0.5,
    );
  const unknown = rows.filter((r) => r.deviceClass === 'unknown').length;
  let summary = `${hdds} of ${rows.length - unknown} hosts are on hard disks`;
  if (seqGains.length > 0) {
    summary += `: an SSD would give them ${ratioText(med(seqGains))} sequential and ${ratioText(med(rndGains))} random reads (median)`;
  }
  if (unknown > 0) summary += ` (${unknown} more not judged: no random 4K QD1 read to tell their disk)`;
  summary += '. Encryption cost per host: not judged, fio measures no cipher (run diskdelta ciphers on the host).';
  return { rows, stats, summary, superseded: [...new Set(superseded)] };
}
