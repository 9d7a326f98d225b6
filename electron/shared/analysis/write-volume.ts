// Write volume against endurance: the bytes a disk wrote since boot, as a pace per day and per
// year, beside the drive's rated endurance (TBW, from its datasheet) as years of life. A pace
// from less than a day of counters is not extrapolated: a morning's updates would read as a
// year of them (MIN_DAYS, and the verdict says so instead).
//
// Pure: the renderer may bundle it.
import { formatDiskSize } from './working-set.ts';

export const MIN_DAYS = 1;
const DAY = 86_400;

export interface WriteVolume {
  name: string;
  bytesWritten: number;
  days: number;
  /** null below MIN_DAYS of counting. */
  bytesPerDay: number | null;
  bytesPerYear: number | null;
  /** Years until the rated endurance at this pace; null without a rating or a pace. */
  yearsOfLife: number | null;
  verdict: string;
}

export function writeVolume(disk: { name: string; bytesWritten: number }, seconds: number, ratedTbw?: number): WriteVolume {
  const days = seconds / DAY;
  const since = `in ${days >= 2 ? `${days.toFixed(1)} days` : `${(seconds / 3600).toFixed(1)} hours`} since boot`;
  if (days < MIN_DAYS) {
    return {
      name: disk.name,
      bytesWritten: disk.bytesWritten,
      days,
      bytesPerDay: null,
      bytesPerYear: null,
      yearsOfLife: null,
      verdict: `${disk.name}: ${formatDiskSize(disk.bytesWritten)} written ${since}; not judged: fewer than ${MIN_DAYS} day of counters says nothing of a year. Ask again after a day or more of ordinary use`,
    };
  }
  const bytesPerDay = disk.bytesWritten / days;
  const bytesPerYear = bytesPerDay * 365;
  const yearsOfLife = ratedTbw ? (ratedTbw * 1e12) / bytesPerYear : null;
  const life =
    yearsOfLife === null
      ? '; give the drive\'s rated endurance (--tbw, "TBW" on its datasheet) to see its years of life at this pace'
      : `: a drive rated ${ratedTbw} TBW lasts ${yearsOfLife >= 100 ? 'over 100' : yearsOfLife.toFixed(yearsOfLife < 10 ? 1 : 0)} years at this pace`;
  return {
    name: disk.name,
    bytesWritten: disk.bytesWritten,
    days,
    bytesPerDay,
    bytesPerYear,
    yearsOfLife,
    verdict: `${disk.name}: ${formatDiskSize(disk.bytesWritten)} written ${since}, ${formatDiskSize(bytesPerDay)} a day, ${formatDiskSize(bytesPerYear)} a year${life}`,
  };
}

/** One disk's counter at one moment, as the library keeps it (store migration 12). */
export interface WriteSample {
  /** ISO 8601. */
  at: string;
  /** The kernel's boot id: counters restart at each boot. */
  bootId: string;
  /** Seconds the counter had counted (since boot). */
  uptimeSeconds: number;
  disk: string;
  bytesWritten: number;
}

export interface MonthWrites {
  /** "2026-12". */
  month: string;
  bytesWritten: number;
  /** Seconds of that month the samples cover (their intervals, boot to first sample included). */
  seconds: number;
}

const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/**
 * One disk's writes per calendar month (UTC) from its kept samples. Within one boot, two samples'
 * difference is exact; the first sample of a boot also covers boot → sample (the counter's total).
 * What a disk wrote after the last sample before a reboot is not seen, and that time is not
 * counted as covered either. An interval that spans a month's end is shared between the two by
 * time (the one estimate here: the counters say how much, not when).
 */
export function monthlyWrites(samples: readonly WriteSample[]): MonthWrites[] {
  const byBoot = new Map<string, WriteSample[]>();
  for (const s of [...samples].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    const list = byBoot.get(s.bootId) ?? [];
    list.push(s);
    byBoot.set(s.bootId, list);
  }
  const months = new Map<string, MonthWrites>();
  const add = (from: number, to: number, bytes: number) => {
    if (!(to > from) || bytes < 0) return;
    for (let start = from; start < to; start = nextMonth(start)) {
      const end = Math.min(to, nextMonth(start));
      const month = monthOf(start);
      const m = months.get(month) ?? { month, bytesWritten: 0, seconds: 0 };
      m.bytesWritten += (bytes * (end - start)) / (to - from);
      m.seconds += (end - start) / 1000;
      months.set(month, m);
    }
  };
  for (const list of byBoot.values()) {
    const first = list[0]!;
    const at = Date.parse(first.at);
    add(at - first.uptimeSeconds * 1000, at, first.bytesWritten);
    for (let i = 1; i < list.length; i++)
      add(Date.parse(list[i - 1]!.at), Date.parse(list[i]!.at), list[i]!.bytesWritten - list[i - 1]!.bytesWritten);
  }
  return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
}

/** "this month vs last" for one disk: each month's pace, or "not judged" under MIN_DAYS of counters in it. */
export function monthsVerdict(disk: string, months: readonly MonthWrites[], now: Date): string {
  const current = now.toISOString().slice(0, 7);
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const told = (label: string, month: string) => {
    const m = months.find((x) => x.month === month);
    if (!m) return `${label}: no samples`;
    const days = m.seconds / DAY;
    const covered = days >= 2 ? `${days.toFixed(1)} days` : `${(m.seconds / 3600).toFixed(1)} hours`;
    if (days < MIN_DAYS)
      return `${label}: ${formatDiskSize(m.bytesWritten)} in ${covered} counted, not judged (fewer than ${MIN_DAYS} day)`;
    return `${label}: ${formatDiskSize(m.bytesWritten / days)} a day (${formatDiskSize(m.bytesWritten)} in ${covered} counted)`;
  };
  return `${disk}: ${told('this month', current)}; ${told('last month', previous)}`;
}

/** The report's lines: each disk's month beside the last, from the kept samples; none without samples. */
export function writeVolumeLines(samples: readonly WriteSample[], now: Date): string[] {
  const disks = [...new Set(samples.map((s) => s.disk))].sort();
  return disks.map((disk) => `${monthsVerdict(disk, monthlyWrites(samples.filter((s) => s.disk === disk)), now)}.`);
}
