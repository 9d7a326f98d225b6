// A drive's own counters in words, the same in `diskdelta health`, `show`, the run's output and
// the report: what the drive says it wrote beside what the host sent it.
import type { DriveCounters, DriveHealth, MediaWrites } from '../model/schemas.ts';
import { formatCount } from './units.ts';

/** The SMART log's Data Unit: 1,000 units of 512 bytes, rounded up by the drive. */
export const DATA_UNIT_BYTES = 512_000;

const count = formatCount;

/** The Critical Warning bits in words (NVMe base specification, figure 194, byte 0). */
export function criticalWarningWords(bits: number): string[] {
  const words = [
    'available spare below its threshold',
    'temperature past a threshold',
    'reliability degraded (media or internal errors)',
    'media placed in read-only mode',
    'volatile memory backup failed',
    'persistent memory region read-only or unreliable',
  ];
  return words.filter((_, i) => bits & (1 << i)).concat(bits >= 64 ? [`reserved bits 0x${(bits & 0xc0).toString(16)}`] : []);
}

/** The drive's counters, one "name  value" line each; or why they were not read. */
export function healthLines(h: DriveHealth): Array<[string, string]> {
  if (h.protocol === null) return [['not read', h.reason]];
  if (h.protocol === 'ata') return ataLines(h);
  const units = (n: number) => `${count(n)} (× 512,000 B = ${count(n * DATA_UNIT_BYTES)} B)`;
  return [
    [
      'critical warning',
      h.criticalWarning === 0 ? 'none' : `0x${h.criticalWarning.toString(16)}: ${criticalWarningWords(h.criticalWarning).join('; ')}`,
    ],
    ['temperature', h.temperatureC === null ? 'not reported' : `${h.temperatureC} °C (Composite)`],
    ['percentage used', `${h.percentageUsed} % of its rated endurance, by the drive's own estimate`],
    ['available spare', `${h.availableSparePercent} % (threshold ${h.availableSpareThresholdPercent} %)`],
    ['data units read', units(h.dataUnitsRead)],
    ['data units written', units(h.dataUnitsWritten)],
    ['flash written', flashWrittenText(h.mediaWrites)],
    ['host read commands', count(h.hostReadCommands)],
    ['host write commands', count(h.hostWriteCommands)],
    ['power-on hours', count(h.powerOnHours)],
    ['power cycles', count(h.powerCycles)],
    ['unsafe shutdowns', count(h.unsafeShutdowns)],
    ['media errors', count(h.mediaErrors)],
    ['error log entries', count(h.errorLogEntries)],
    [
      'time hot',
      `${count(h.warningTemperatureMinutes)} min at or past its warning temperature, ${count(h.criticalTemperatureMinutes)} min past critical`,
    ],
    [
      'thermal throttling',
      `${count(h.thermalTransitions[0])} + ${count(h.thermalTransitions[1])} transitions, ${count(h.thermalSeconds[0])} + ${count(h.thermalSeconds[1])} s (management temperatures 1 + 2; 0 where the drive does not count them)`,
    ],
  ];
}

/** The flash's own writes as `health` says them: the count and where it came from, or why not. */
function flashWrittenText(m: MediaWrites | undefined): string {
  if (!m) return 'not read (kept before DiskDelta read the endurance-group log 09h and OCP C0h)';
  if (m.source === null) return `not reported by this drive (${m.reason})`;
  return `${count(m.bytes)} B, by ${MEDIA_SOURCE[m.source]}, in units of ${count(m.unitBytes)} B: the host's writes and the drive's own`;
}

type AtaHealth = Extract<DriveHealth, { protocol: 'ata' }>;

const NOT_REPORTED = 'not reported by this drive';
const orNot = (n: number | null, say: (n: number) => string = count) => (n === null ? NOT_REPORTED : say(n));

/** A SATA drive's attributes: the fields that map first (each "not reported" where absent), then every attribute. */
function ataLines(h: AtaHealth): Array<[string, string]> {
  const bytes = (n: number) => `${count(n)} B`;
  return [
    ['model', h.model ?? NOT_REPORTED],
    [
      'overall health',
      h.smartPassed === null
        ? NOT_REPORTED
        : h.smartPassed
          ? "PASSED (the drive's own self-assessment)"
          : "FAILED (the drive's own self-assessment): back up its data",
    ],
    ['temperature', orNot(h.temperatureC, (t) => `${t} °C`)],
    [
      'percentage used',
      orNot(h.percentageUsed, (p) => `${p} % of its rated endurance (100 − attribute ${h.wearAttribute}'s normalized value)`),
    ],
    ['bytes read', orNot(h.bytesRead, bytes)],
    [
      'bytes written',
      orNot(h.bytesWritten, (b) => `${bytes(b)}${h.writeUnitBytes === null ? '' : ` (counted in units of ${count(h.writeUnitBytes)} B)`}`),
    ],
    ['power-on hours', orNot(h.powerOnHours)],
    ['power cycles', orNot(h.powerCycles)],
    ['media errors', orNot(h.mediaErrors, (n) => `${count(n)} (187 Reported_Uncorrect)`)],
    ['reallocated sectors', orNot(h.reallocatedSectors)],
    ['pending sectors', orNot(h.pendingSectors)],
    ['offline uncorrectable', orNot(h.offlineUncorrectable)],
    ...h.attributes.map((a): [string, string] => [
      `${a.id} ${a.name}`,
      `value ${a.value}, worst ${a.worst}, threshold ${a.thresh}, raw ${a.raw}`,
    ]),
  ];
}

/** An ATA reading's write counter with the unit it counts in, or null: a count without its unit says nothing. */
function ataWritten(h: Extract<DriveHealth, { protocol: 'ata' }>): { bytes: number; unitBytes: number } | null {
  return h.bytesWritten !== null && h.writeUnitBytes !== null && h.writeUnitBytes > 0
    ? { bytes: h.bytesWritten, unitBytes: h.writeUnitBytes }
    : null;
}

/**
 * Bytes the drive counted as written during a run and the unit it counts in (a difference is good
 * to one unit), or null where before or after is missing, the drive keeps no write counter, or a
 * reading lacks its unit (or the two count in different units).
 */
export function bytesWrittenDuring(c: DriveCounters): { bytes: number; unitBytes: number } | null {
  const [before, after] = [c.before, c.after];
  if (!after) return null;
  if (before.protocol === 'nvme' && after.protocol === 'nvme')
    return { bytes: (after.dataUnitsWritten - before.dataUnitsWritten) * DATA_UNIT_BYTES, unitBytes: DATA_UNIT_BYTES };
  if (before.protocol !== 'ata' || after.protocol !== 'ata') return null;
  const [from, to] = [ataWritten(before), ataWritten(after)];
  if (!from || !to || from.unitBytes !== to.unitBytes) return null;
  return { bytes: to.bytes - from.bytes, unitBytes: to.unitBytes };
}

/**
 * Why a SATA drive's write amplification is not given. "Not read": the attributes that hold the
 * flash's own writes exist, but their meaning differs by maker.
 */
const ATA_WRITE_AMPLIFICATION_NOT_READ =
  "its SMART attribute 241 counts the host's writes, not the flash's own; those are in a vendor-specific attribute (often 249 or 233) whose meaning differs by maker, which DiskDelta does not read yet";

/** An NVMe run kept before DiskDelta read the flash's own writes. */
const NVME_WRITE_AMPLIFICATION_NOT_READ =
  "this run was kept before DiskDelta read the flash's own writes (the endurance-group log 09h, OCP's C0h page)";

/**
 * Below this many of the flash counter's units, a run's write amplification is mostly the
 * counter's rounding (an endurance-group log counts in 1,000,000,000 B), so it is not judged.
 */
const WA_MIN_UNITS = 10;

const MEDIA_SOURCE = {
  'endurance-group': 'the endurance-group log (09h)',
  'ocp-c0': "OCP's C0h page",
} as const;

/**
 * A run's write amplification: the flash's writes ÷ the writes the drive took from the host, both
 * by the drive's own counts, with the range their units allow; or, not judged, a short word for a
 * table cell and why. Null where the drive's counters were not read before and after.
 */
export type WriteAmplification =
  | { judged: true; ratio: number; low: number; high: number; mediaBytes: number; hostBytes: number; basis: string }
  | { judged: false; short: 'not read' | 'not reported' | 'not judged'; why: string };

export function writeAmplificationDuring(c: DriveCounters): WriteAmplification | null {
  const [before, after] = [c.before, c.after];
  if (!after || before.protocol === null || after.protocol === null) return null;
  if (before.protocol === 'ata' || after.protocol === 'ata')
    return { judged: false, short: 'not read', why: ATA_WRITE_AMPLIFICATION_NOT_READ };
  const [from, to] = [before.mediaWrites, after.mediaWrites];
  if (!from || !to) return { judged: false, short: 'not read', why: NVME_WRITE_AMPLIFICATION_NOT_READ };
  if (to.source === null)
    return { judged: false, short: 'not reported', why: `this drive reports no count of its flash's own writes: ${to.reason}` };
  if (from.source === null)
    return {
      judged: false,
      short: 'not reported',
      why: `before the run the drive reported no count of its flash's own writes: ${from.reason}`,
    };
  if (from.source !== to.source || from.unitBytes !== to.unitBytes)
    return { judged: false, short: 'not judged', why: 'the readings before and after the run came from different pages' };
  const host = (after.dataUnitsWritten - before.dataUnitsWritten) * DATA_UNIT_BYTES;
  const media = to.bytes - from.bytes;
  const unit = to.unitBytes;
  const source = `${MEDIA_SOURCE[to.source]}, in units of ${count(unit)} B`;
  if (host <= 0) return { judged: false, short: 'not judged', why: 'the drive took no writes from the host during the run' };
  if (host < WA_MIN_UNITS * unit)
    return {
      judged: false,
      short: 'not judged',
      why: `the drive counts its flash's writes in ${source}, and this run wrote ${count(host)} B, under ${WA_MIN_UNITS} of those units: the ratio would be mostly rounding; a longer write (the sustained write, --preset steady) shows it`,
    };
  // Each running total is rounded to its unit, so each difference is good to one unit.
  const low = Math.max(0, media - unit) / (host + DATA_UNIT_BYTES);
  const high = (media + unit) / Math.max(DATA_UNIT_BYTES, host - DATA_UNIT_BYTES);
  return {
    judged: true,
    ratio: media / host,
    low,
    high,
    mediaBytes: media,
    hostBytes: host,
    basis: `the flash wrote ${count(media)} B by ${source}, for the ${count(host)} B the drive took from the host (its SMART log's data units); each count good to one unit`,
  };
}

/** "×1.23 (×1.12–×1.35)" or the short word. */
export function writeAmplificationShort(wa: WriteAmplification): string {
  return wa.judged ? `×${wa.ratio.toFixed(2)} (×${wa.low.toFixed(2)}–×${wa.high.toFixed(2)})` : wa.short;
}

/** The run's sentence: "write amplification ×1.23 (×1.12–×1.35: …)" or "write amplification: not reported (…)". */
export function writeAmplificationText(wa: WriteAmplification): string {
  return wa.judged
    ? `write amplification ×${wa.ratio.toFixed(2)} (×${wa.low.toFixed(2)}–×${wa.high.toFixed(2)}: ${wa.basis})`
    : `write amplification: ${wa.short} (${wa.why})`;
}

/**
 * "written by the drive's own count: 20 data units (≤ 10,240,000 B), beside the host's 10,002,432 B
 * (/proc/diskstats); write amplification: not read …", or why not.
 */
export function driveWrittenText(c: DriveCounters): string {
  if (c.before.protocol === null) return `the drive's counters were not read: ${c.before.reason}`;
  if (!c.after || c.after.protocol === null)
    return `the drive's counters were read before the run but not after${c.after ? `: ${c.after.reason}` : ''}`;
  const host =
    c.hostBytesWritten === null
      ? 'the host count was not read'
      : `the host sent ${count(c.hostBytesWritten)} B to the disk (/proc/diskstats)`;
  // The SMART log counts what the host asked to write; the NAND's own writes (and so write
  // amplification) are only in the endurance-group log or OCP's C0h page (writeAmplificationDuring).
  // The drive rounds its running total up to a unit, so a difference is good to one unit.
  if (c.before.protocol === 'ata') {
    const during = bytesWrittenDuring(c);
    if (during === null)
      return `the drive's counters were read, but this drive keeps no write counter DiskDelta knows (attribute 241 Total_LBAs_Written or Host_Writes_*); ${host}`;
    return (
      `written by the drive's own count: ${count(during.bytes)} B (attribute 241, in units of ${count(during.unitBytes)} B: to within one unit); ${host}; ` +
      writeAmplificationText(writeAmplificationDuring(c)!)
    );
  }
  const units = bytesWrittenDuring(c)!.bytes / DATA_UNIT_BYTES;
  return (
    `written by the drive's own count: ${count(units)} data unit${units === 1 ? '' : 's'} of 512,000 B ` +
    `(${count(units * DATA_UNIT_BYTES)} B, to within one unit); ${host}; ` +
    writeAmplificationText(writeAmplificationDuring(c)!)
  );
}

/** A drive that raised its Critical Warning before or after the run: said on the run. */
export function driveWarnings(c: DriveCounters): Array<{ code: string; message: string }> {
  const latest = c.after && c.after.protocol !== null ? c.after : c.before;
  if (latest.protocol === 'ata')
    return latest.smartPassed === false
      ? [
          {
            code: 'drive-critical-warning',
            message: `${latest.disk} fails its own SMART overall-health self-assessment: its figures may be those of a failing drive; back up its data`,
          },
        ]
      : [];
  if (latest.protocol === null || latest.criticalWarning === 0) return [];
  return [
    {
      code: 'drive-critical-warning',
      message: `${latest.disk} reports a critical warning (0x${latest.criticalWarning.toString(16)}: ${criticalWarningWords(latest.criticalWarning).join('; ')}): its figures may be those of a failing or throttled drive; back up its data`,
    },
  ];
}
