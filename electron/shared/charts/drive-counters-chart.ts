// The drive's own count of what each run wrote (#41 item 1), as a small table in Compare and the
// report: per run, the bytes the host sent the disk (/proc/diskstats) beside the bytes the drive
// counted as written (its SMART / health log's Data Units Written, after − before), its write
// amplification where the drive counts its flash's own writes (NVMe's endurance-group log or
// OCP's C0h page; not judged, not reported or not read said with why), and how
// much of its rated endurance it says it has used. Drawn only when some run has the drive's
// counters from before and after; a run beside it without them says why.
import {
  bytesWrittenDuring,
  writeAmplificationDuring,
  writeAmplificationShort,
  type WriteAmplification,
} from '../analysis/drive-health.ts';
import { formatCount, groupedFormat } from '../analysis/units.ts';
import type { RunRecord } from '../model/results.ts';
import type { ChartType } from './chart-registry.ts';
import type { TableCell, TableChartModel } from './chart-model.ts';

const HOST_BASIS = "the kernel's count of bytes written to the whole disk during the run (/proc/diskstats): everything the host sent it";
const DRIVE_BASIS =
  "the drive's SMART / health log, Data Units Written after the run minus before; the drive counts in units of 512,000 B, rounded up, so this is good to one unit";
const ATA_BASIS =
  "the drive's SMART attribute 241 (Total_LBAs_Written or Host_Writes_*) after the run minus before, times its unit; good to one unit";
/** Decimal megabytes to 0.1 MB, the unit held to its number (a cell wrapped "19,437.2 / MB"), the same for both counts, so that they read side by side (decimalBytes rounds 511.7 and 512 alike). */
const megabytes = (bytes: number) => `${groupedFormat(bytes / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}\u00a0MB`;

/** The counters read before and after, or null. */
function bothReadings(record: RunRecord) {
  const c = record.drive;
  const during = c ? bytesWrittenDuring(c) : null;
  if (!c || !c.after || c.before.protocol === null || c.after.protocol === null || during === null) return null;
  return { before: c.before, after: c.after, ...during, host: c.hostBytesWritten };
}

/** Why a run beside the others has no drive count. */
function missingText(record: RunRecord): string {
  const c = record.drive;
  if (!c) return 'not read (a run imported, or from before DiskDelta read them)';
  if (c.before.protocol === null) return `not read: ${c.before.reason}`;
  // Both read as SATA yet no count: a counter missing, or without its unit (bytesWrittenDuring).
  if (c.before.protocol === 'ata' && (c.after?.protocol === 'ata' || c.before.bytesWritten === null))
    return 'read, but this drive keeps no write counter (SMART attribute 241)';
  return c.after
    ? `read before the run, not after${c.after.protocol === null ? `: ${c.after.reason}` : ''}`
    : 'read before the run, not after';
}

/** Why a run's write amplification is not given, once per reason, naming the runs ("#1, #3"). */
function waNotes(records: readonly RunRecord[]): string[] {
  const runsBy = new Map<string, string[]>();
  records.forEach((record, i) => {
    const wa = record.drive && bothReadings(record) ? writeAmplificationDuring(record.drive) : null;
    if (!wa || wa.judged) return;
    const key = `${wa.short}: ${wa.why}`;
    runsBy.set(key, [...(runsBy.get(key) ?? []), `#${i + 1}`]);
  });
  return [...runsBy].map(([why, runs]) => `Write amplification of ${runs.join(', ')}, ${why}.`);
}

/** A judged ratio with its basis, or the short word with why. */
const waCell = (wa: WriteAmplification): TableCell => ({ display: writeAmplificationShort(wa), basis: wa.judged ? wa.basis : wa.why });

export const driveCountersChart: ChartType = {
  id: 'drive-counters',
  draws:
    "a table of runs whose drive's own counters (NVMe SMART / health log, SATA attributes through smartctl) were read before and after: bytes the host sent beside bytes the drive counted as written, write amplification where reported (said when not), rated endurance used",
  inReport: true,
  build({ records }) {
    if (!records.some((r) => bothReadings(r) !== null)) return [];
    const cell = (display: string, basis?: string): TableCell => (basis ? { display, basis } : { display });
    const rows = records.map((record, i) => {
      const title = `#${i + 1}${record.label ? ` ${record.label}` : ''}`;
      const read = bothReadings(record);
      if (!read) {
        // The host's count is the kernel's, read for any disk: only the drive's own is missing.
        const host = record.drive?.hostBytesWritten ?? null;
        const hostCell = host === null ? cell('not read') : cell(megabytes(host), `${formatCount(host)} B: ${HOST_BASIS}`);
        return { key: `run-${i}`, title, cells: [hostCell, cell(missingText(record)), cell('—'), cell('—')] };
      }
      const { bytes, unitBytes } = read;
      const used = (h: typeof read.before) => (h.percentageUsed === null ? 'not reported' : `${h.percentageUsed} %`);
      return {
        key: `run-${i}`,
        title,
        cells: [
          read.host === null ? cell('not read', HOST_BASIS) : cell(megabytes(read.host), `${formatCount(read.host)} B: ${HOST_BASIS}`),
          cell(
            `${megabytes(bytes)} (${formatCount(bytes / unitBytes)} unit${bytes === unitBytes ? '' : 's'}${read.before.protocol === 'ata' ? ` of ${formatCount(unitBytes)} B` : ''})`,
            `${formatCount(bytes)} B: ${read.before.protocol === 'ata' ? ATA_BASIS : DRIVE_BASIS}`,
          ),
          waCell(writeAmplificationDuring(record.drive!)!),
          cell(
            used(read.before) === used(read.after) ? used(read.after) : `${used(read.before)} → ${used(read.after)}`,
            "percentage used: the drive's own estimate of its rated endurance used, before and after",
          ),
        ],
      };
    });
    const chart: TableChartModel = {
      id: 'drive-counters',
      type: 'drive-counters',
      shape: 'table',
      title: "What each run wrote, by the drive's own count",
      unitLabel: 'bytes, decimal',
      direction: 'none',
      wide: true,
      captionNote: "a table: each run's counts from before and after it",
      columns: ['run', 'the host sent', 'the drive counted written', 'write amplification', 'endurance used'],
      groups: [
        {
          key: 'runs',
          title: "Bytes written during each run: the host's count and the drive's",
          rows,
          notes: [
            `The drive counts in units (NVMe: data units of 512,000 B, rounded up; SATA: attribute 241's LBAs or MiB): its figure is good to one unit. The host's count is the whole disk's, so other writes to it during the run are in it.`,
            ...waNotes(records),
          ],
        },
      ],
    };
    return [chart];
  },
};
