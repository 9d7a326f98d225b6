// How big an SSD the user's own data needs: the working set from a scan's last-touched times
// (bench/kinds/working-set.ts runs the worker's `working-set` verb). The scan bins each file's
// allocated bytes by whole days since it was last read or written; here they become the bytes
// touched within 1, 7, 30, 90 and 365 days, the largest folders, the figures a run keeps in the
// library, and the verdict in words. Everything here reads figures back too, so a kept run is
// told the same way as a fresh scan (the report, the app's page, `diskdelta show`).
//
// Pure: the renderer bundles this module.
import type { Figure, TestResult, Warning } from '../model/results.ts';

export const WORKING_SET_TEST = 'working-set';
/** The windows the question is asked in: a day, a week, a month, a quarter, a year. */
export const WINDOW_DAYS = [1, 7, 30, 90, 365] as const;
/** The window the verdict is said in: what a season of work touches. */
export const VERDICT_DAYS = 90;
/** Folders kept per run: the largest, by allocated bytes. */
export const FOLDERS_KEPT = 10;

/** Sparse [days since last touched, allocated bytes] pairs, as the worker prints them. */
export type DayBins = ReadonlyArray<readonly [number, number]>;

export interface ScannedFolder {
  /** A child of the scanned folder; "" for the files directly in it. */
  name: string;
  files: number;
  apparentBytes: number;
  allocatedBytes: number;
  /** By days since max(atime, mtime). */
  touched: DayBins;
  /** By days since mtime. */
  written: DayBins;
}

export interface WorkingSetWindow {
  days: number;
  /** Allocated bytes of the files read or written within the window (reads only where the mount records them). */
  touchedBytes: number;
  writtenBytes: number;
}

export interface FolderShare {
  name: string;
  bytes: number;
  /** Of those, read or written within VERDICT_DAYS. */
  recentBytes: number;
}

/** What a run says about the working set: from a scan, or read back from a kept run's figures. */
export interface WorkingSetSummary {
  totalBytes: number;
  files: number;
  windows: WorkingSetWindow[];
  folders: FolderShare[];
  /** false on a noatime mount: a file only read looks as old as its last write. */
  readsSeen: boolean;
}

/** Bytes in the bins younger than `days` whole days: "within 7 days" is days 0…6. */
export function bytesWithin(bins: DayBins, days: number): number {
  let sum = 0;
  for (const [day, bytes] of bins) if (day < days) sum += bytes;
  return sum;
}

/** The warning codes of the mount's atime policy (system/atime-policy.ts) that hide reads. */
export const READS_UNSEEN = 'atime-noatime';

export function summarizeScan(folders: readonly ScannedFolder[], warnings: readonly Warning[]): WorkingSetSummary {
  const windows = WINDOW_DAYS.map((days) => ({
    days,
    touchedBytes: folders.reduce((n, f) => n + bytesWithin(f.touched, days), 0),
    writtenBytes: folders.reduce((n, f) => n + bytesWithin(f.written, days), 0),
  }));
  const shares = folders
    .filter((f) => f.files > 0)
    .map((f) => ({ name: f.name, bytes: f.allocatedBytes, recentBytes: bytesWithin(f.touched, VERDICT_DAYS) }))
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
    .slice(0, FOLDERS_KEPT);
  return {
    totalBytes: folders.reduce((n, f) => n + f.allocatedBytes, 0),
    files: folders.reduce((n, f) => n + f.files, 0),
    windows,
    folders: shares,
    readsSeen: !warnings.some((w) => w.code === READS_UNSEEN),
  };
}

const windowSubject = (days: number) => `${days} d`;
// The files directly in the scanned folder get a subject in words; a child folder of that very name would share it.
const folderSubject = (name: string) => (name === '' ? '(files in the folder itself)' : name);

/** The figures a working-set run keeps: one per window and kind of touch, the total, the folders. */
export function workingSetFigures(summary: WorkingSetSummary, basis: string): Figure[] {
  const figure = (metric: string, subject: string, value: number, unit: 'bytes' | 'count' = 'bytes'): Figure => ({
    metric,
    subject,
    value,
    unit,
    provenance: 'measured',
    basis,
  });
  return [
    figure('storedBytes', '', summary.totalBytes),
    figure('fileCount', '', summary.files, 'count'),
    ...summary.windows.map((w) => figure('touchedBytes', windowSubject(w.days), w.touchedBytes)),
    ...summary.windows.map((w) => figure('writtenBytes', windowSubject(w.days), w.writtenBytes)),
    ...summary.folders.map((f) => figure('folderBytes', folderSubject(f.name), f.bytes)),
    ...summary.folders.map((f) => figure('folderRecentBytes', folderSubject(f.name), f.recentBytes)),
  ];
}

/** A kept run's summary, from its figures and warnings; null for a result of another test. */
export function summaryOfResult(result: Pick<TestResult, 'test' | 'figures' | 'warnings'>): WorkingSetSummary | null {
  if (result.test !== WORKING_SET_TEST || !result.figures) return null;
  const figures = result.figures;
  const value = (metric: string, subject: string) => figures.find((f) => f.metric === metric && f.subject === subject)?.value ?? 0;
  const windows = WINDOW_DAYS.map((days) => ({
    days,
    touchedBytes: value('touchedBytes', windowSubject(days)),
    writtenBytes: value('writtenBytes', windowSubject(days)),
  }));
  const folders = figures
    .filter((f) => f.metric === 'folderBytes')
    .map((f) => ({ name: f.subject, bytes: f.value ?? 0, recentBytes: value('folderRecentBytes', f.subject) }));
  return {
    totalBytes: value('storedBytes', ''),
    files: value('fileCount', ''),
    windows,
    folders,
    readsSeen: !result.warnings.some((w) => w.code === READS_UNSEEN),
  };
}

/** Disk sizes as drives are sold: decimal, "84 GB", "1.2 TB", "512 MB". */
export function formatDiskSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let i = 0;
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000;
    i += 1;
  }
  const text = i === 0 || value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return `${text.replace(/\.0+$|(\.\d*?)0+$/, '$1')} ${units[i]}`;
}

export function windowOf(summary: WorkingSetSummary, days: number): WorkingSetWindow {
  return summary.windows.find((w) => w.days === days) ?? { days, touchedBytes: 0, writtenBytes: 0 };
}

/**
 * The answer in words: the 90-day working set against the SSD's size (when one is given), and
 * what a year has not touched. On a noatime mount it says first that reads are not seen.
 */
export function workingSetVerdict(summary: WorkingSetSummary, ssdBytes?: number): string {
  const recent = windowOf(summary, VERDICT_DAYS).touchedBytes;
  const year = windowOf(summary, 365).touchedBytes;
  const cold = summary.totalBytes - year;
  const size = formatDiskSize;
  const parts: string[] = [];
  const what = summary.readsSeen ? 'working set' : 'written set';
  let head = `your ${VERDICT_DAYS}-day ${what} is ${size(recent)}`;
  if (ssdBytes !== undefined) {
    if (recent <= ssdBytes) head += `: the ${size(ssdBytes)} SSD holds it with ${size(ssdBytes - recent)} to spare`;
    else {
      head += `: it does not fit on the ${size(ssdBytes)} SSD (${size(recent - ssdBytes)} short)`;
      const fitting = [...summary.windows].reverse().find((w) => w.touchedBytes <= ssdBytes);
      if (fitting)
        head += `; what you touched within ${fitting.days} ${fitting.days === 1 ? 'day' : 'days'} (${size(fitting.touchedBytes)}) would fit`;
    }
  }
  parts.push(head);
  if (cold > 0) parts.push(`what you have not touched in a year, ${size(cold)}, can live on the old disk or the network`);
  const sentence = parts.join('; ');
  const said = sentence.charAt(0).toUpperCase() + sentence.slice(1) + '.';
  return summary.readsSeen
    ? said
    : `Reads are not seen on this mount (noatime): these are the bytes written, and a file only read looks as old as its last write. ${said}`;
}
