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
