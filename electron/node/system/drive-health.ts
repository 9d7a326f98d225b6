// A drive's own counters: the NVMe SMART / health log as the privileged helper's smart-log verb
// prints it (native/src/nvme-smart.c), parsed into the model, and which disks have one. Reading
// needs root (an NVMe admin command); bench/privilege/drive-health-read.ts runs the helper. SATA
// disks' attributes come from smartctl (system/smartctl.ts).
import type { DriveHealth, MediaWrites } from '../../shared/model/schemas.ts';

/** An NVMe namespace or controller by kernel name: nvme0n1, nvme0 (not a partition nvme0n1p1). */
export const NVME_DISK = /^nvme\d+(n\d+)?$/;

const COUNTERS = [
  ['data_units_read', 'dataUnitsRead'],
  ['data_units_written', 'dataUnitsWritten'],
  ['host_read_commands', 'hostReadCommands'],
  ['host_write_commands', 'hostWriteCommands'],
  ['power_on_hours', 'powerOnHours'],
  ['power_cycles', 'powerCycles'],
  ['unsafe_shutdowns', 'unsafeShutdowns'],
  ['media_errors', 'mediaErrors'],
  ['error_log_entries', 'errorLogEntries'],
] as const;

function whole(value: unknown, what: string): number {
  // The helper prints 128-bit counters as decimal strings; the rest as JSON numbers.
  if (typeof value === 'string' && /^\d{1,40}$/.test(value)) return Number(BigInt(value));
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new Error(`the SMART log's ${what} is ${JSON.stringify(value)}, not a count`);
}

function pair(value: unknown, what: string): [number, number] {
  if (!Array.isArray(value) || value.length !== 2) throw new Error(`the SMART log's ${what} is not two counts`);
  return [whole(value[0], what), whole(value[1], what)];
}

/** A 512-byte log page as the helper prints it (hex), or null. */
function page(value: unknown): Buffer | null {
  return typeof value === 'string' && /^[0-9a-f]{1024}$/.test(value) ? Buffer.from(value, 'hex') : null;
}

/** A little-endian 128-bit counter at `offset` (NVMe's), as a number (exact to 2^53). */
function u128(log: Buffer, offset: number): number {
  return Number(log.readBigUInt64LE(offset + 8) * 2n ** 64n + log.readBigUInt64LE(offset));
}

/**
 * OCP Datacenter NVMe SSD spec, SMART / Health Information Extended (C0h): its Log Page GUID
 * AFD514C9-7C6F-4F9C-A4F2-BFEA2810AFC5, as its bytes 496–511 hold it (little-endian).
 */
export const OCP_C0_GUID_BYTES = 'c5af1028eabff2a49c4f6f7cc914d5af';

/** Why a page the helper could not read is absent (its own sentence), that it is malformed, or that it printed none. */
function absentReason(value: unknown, name: string): string {
  const { absent, hex } = (value ?? {}) as { absent?: unknown; hex?: unknown };
  if (typeof absent === 'string') return absent.slice(0, 300);
  return hex === undefined ? `no ${name} from the helper` : `the helper's ${name} is not 512 bytes of hex`;
}

/**
 * The flash's own writes: OCP C0h's Physical Media Units Written (bytes 15:0, in bytes) where the
 * page carries OCP's GUID, else the endurance-group log's Media Units Written (bytes 95:80, in
 * units of 1,000,000,000 B); C0h first, since it counts in bytes. Else why neither says.
 */
function mediaWritesOf(raw: Record<string, unknown>): MediaWrites {
  const reasons: string[] = [];
  const ocp = page((raw.ocp_c0 as { hex?: unknown } | undefined)?.hex);
  if (ocp && ocp.subarray(496, 512).toString('hex') === OCP_C0_GUID_BYTES) return { source: 'ocp-c0', bytes: u128(ocp, 0), unitBytes: 1 };
  reasons.push(ocp ? "its C0h page is not OCP's (another GUID: a vendor's own page)" : `C0h: ${absentReason(raw.ocp_c0, 'C0h page')}`);
  const endurance = page((raw.endurance_log as { hex?: unknown } | undefined)?.hex);
  if (endurance) {
    const media = u128(endurance, 80);
    const host = u128(endurance, 64);
    // A drive that fills the page yet leaves Media Units Written at 0 beside host writes does not count them there.
    if (media > 0 || host === 0) return { source: 'endurance-group', bytes: media * 1e9, unitBytes: 1e9 };
    reasons.push("its endurance-group log (09h) leaves Media Units Written at 0 beside the host's writes");
  } else {
    reasons.push(`09h: ${absentReason(raw.endurance_log, 'endurance-group log')}`);
  }
  return { source: null, reason: reasons.join('; ') };
}

/** The helper's one JSON line, as the model; throws with what is wrong in it. */
export function parseSmartLog(disk: string, line: string): DriveHealth {
  const raw = JSON.parse(line) as Record<string, unknown>;
  const kelvin = whole(raw.composite_temperature_k, 'composite temperature');
  const counters = Object.fromEntries(COUNTERS.map(([from, to]) => [to, whole(raw[from], from)])) as Record<
    (typeof COUNTERS)[number][1],
    number
  >;
  return {
    disk,
    protocol: 'nvme',
    criticalWarning: whole(raw.critical_warning, 'critical warning'),
    // A drive that reports no temperature says 0 K.
    temperatureC: kelvin === 0 ? null : Number((kelvin - 273.15).toFixed(2)),
    availableSparePercent: whole(raw.available_spare, 'available spare'),
    availableSpareThresholdPercent: whole(raw.available_spare_threshold, 'available spare threshold'),
    percentageUsed: whole(raw.percentage_used, 'percentage used'),
    ...counters,
    warningTemperatureMinutes: whole(raw.warning_temperature_minutes, 'warning temperature time'),
    criticalTemperatureMinutes: whole(raw.critical_temperature_minutes, 'critical temperature time'),
    thermalTransitions: pair(raw.thermal_transitions, 'thermal management transitions'),
    thermalSeconds: pair(raw.thermal_seconds, 'thermal management time'),
    mediaWrites: mediaWritesOf(raw),
  };
}

/** A SATA/SCSI (or old IDE) whole disk by kernel name: sda, sdab, hda (not a partition sda1); read with smartctl. */
export const ATA_DISK = /^(sd|hd)[a-z]{1,4}$/;

/** Why a disk that is neither NVMe nor SATA/SCSI has no counters read. */
export function noCountersReason(disk: string | null, deviceClass: string | null): string {
  if (disk === null) return 'no disk was found under the target';
  return `${disk}${deviceClass ? ` (${deviceClass})` : ''} is not an NVMe drive: it keeps no SMART / health log DiskDelta reads`;
}
