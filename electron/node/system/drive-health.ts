// A drive's own counters: the NVMe SMART / health log as the privileged helper's smart-log verb
// prints it (native/src/nvme-smart.c), parsed into the model, and which disks have one. Reading
// needs root (an NVMe admin command); bench/privilege/drive-health-read.ts runs the helper. SATA
// disks' attributes come from smartctl (system/smartctl.ts).
import type { DriveHealth } from '../../shared/model/schemas.ts';

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
  };
}

/** A SATA/SCSI (or old IDE) whole disk by kernel name: sda, sdab, hda (not a partition sda1); read with smartctl. */
export const ATA_DISK = /^(sd|hd)[a-z]{1,4}$/;

/** Why a disk that is neither NVMe nor SATA/SCSI has no counters read. */
export function noCountersReason(disk: string | null, deviceClass: string | null): string {
  if (disk === null) return 'no disk was found under the target';
  return `${disk}${deviceClass ? ` (${deviceClass})` : ''} is not an NVMe drive: it keeps no SMART / health log DiskDelta reads`;
}
