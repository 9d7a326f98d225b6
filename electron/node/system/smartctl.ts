// A SATA/ATA drive's SMART attributes, from `smartctl -j -A -H -i DEVICE` (smartmontools 7.x
// JSON), into the same DriveHealth model as NVMe's log where a field maps. ATA attributes are
// vendor-defined: a field is filled only from an attribute whose number AND smartctl's name for
// it say what it counts (smartctl names them from its drive database), never guessed from another.
import type { DriveHealth } from '../../shared/model/schemas.ts';

type AtaHealth = Extract<DriveHealth, { protocol: 'ata' }>;

/** The fixed argv: -j JSON, -A attributes, -H health, -i identity (model, block size). */
export const SMARTCTL_ARGS = ['-j', '-A', '-H', '-i'] as const;

/** smartctl's exit status bits 0 and 1: the command line was not understood, or the device not opened. */
const SMARTCTL_FAILED = 0b11;

/** Bytes per unit of the write/read counters by smartctl's name for them; LBAs take the drive's block size. */
const BYTE_COUNTERS: Record<number, Record<string, number | 'lba'>> = {
  241: { Total_LBAs_Written: 'lba', Host_Writes_32MiB: 32 * 2 ** 20, Host_Writes_GiB: 2 ** 30, Host_Writes_MiB: 2 ** 20 },
  242: { Total_LBAs_Read: 'lba', Host_Reads_32MiB: 32 * 2 ** 20, Host_Reads_GiB: 2 ** 30, Host_Reads_MiB: 2 ** 20 },
};

/** Wear attributes whose normalized value falls from 100 as the flash wears (so used = 100 − value). */
const WEAR = [
  [177, 'Wear_Leveling_Count'],
  [231, 'SSD_Life_Left'],
  [233, 'Media_Wearout_Indicator'],
] as const;

interface Attribute {
  id: number;
  name: string;
  value: number;
  worst: number;
  thresh: number;
  raw: { value: number; string: string };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function isAttribute(a: unknown): a is Attribute {
  if (typeof a !== 'object' || a === null) return false;
  const r = a as Partial<Record<keyof Attribute, unknown>>;
  const raw = (typeof r.raw === 'object' && r.raw !== null ? r.raw : {}) as { value?: unknown; string?: unknown };
  return (
    isCount(r.id) &&
    typeof r.name === 'string' &&
    isCount(r.value) &&
    isCount(r.worst) &&
    isCount(r.thresh) &&
    isCount(raw.value) &&
    typeof raw.string === 'string'
  );
}

function attributesOf(json: Record<string, unknown>): Attribute[] {
  const table = (json.ata_smart_attributes as { table?: unknown } | undefined)?.table;
  return Array.isArray(table) ? table.filter(isAttribute) : [];
}

/** smartctl's own messages (why a device was not opened, say), joined. */
function messagesOf(json: Record<string, unknown>): string {
  const messages = (json.smartctl as { messages?: Array<{ string?: unknown }> } | undefined)?.messages ?? [];
  return messages
    .map((m) => m.string)
    .filter((m): m is string => typeof m === 'string')
    .join('; ');
}

/**
 * smartctl's JSON for `disk`, as the model; or why not (a SCSI disk, a device smartctl could not
 * open, no attribute table). Throws only where the text is not smartctl's JSON at all.
 */
export function parseSmartctl(disk: string, text: string): DriveHealth {
  const parsed: unknown = JSON.parse(text);
  const json = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof json.smartctl !== 'object' || json.smartctl === null) throw new Error('not smartctl JSON output');
  const exit = (json.smartctl as { exit_status?: unknown }).exit_status;
  if (isCount(exit) && exit & SMARTCTL_FAILED)
    return { disk, protocol: null, reason: `smartctl could not read /dev/${disk}: ${messagesOf(json) || `exit status ${exit}`}` };
  const protocol = (json.device as { protocol?: unknown } | undefined)?.protocol;
  if (protocol !== 'ATA')
    return {
      disk,
      protocol: null,
      reason: `${disk} answers as ${typeof protocol === 'string' ? protocol : 'an unknown protocol'}, not ATA: its SMART data is not read by this version`,
    };
  const attributes = attributesOf(json);
  if (attributes.length === 0)
    return { disk, protocol: null, reason: `${disk} reports no SMART attribute table${messagesOf(json) ? `: ${messagesOf(json)}` : ''}` };
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const named = (id: number, name: string) => (byId.get(id)?.name === name ? byId.get(id)!.raw.value : null);
  const blockSize = isCount(json.logical_block_size) && json.logical_block_size > 0 ? json.logical_block_size : null;
  const bytes = (id: 241 | 242) => {
    const a = byId.get(id);
    const unit = a ? BYTE_COUNTERS[id]?.[a.name] : undefined;
    if (!a || unit === undefined) return { bytes: null, unit: null };
    const unitBytes = unit === 'lba' ? blockSize : unit;
    return unitBytes === null ? { bytes: null, unit: null } : { bytes: a.raw.value * unitBytes, unit: unitBytes };
  };
  const wear = WEAR.map(([id, name]) => (byId.get(id)?.name === name ? byId.get(id) : undefined)).find((a) => a !== undefined);
  const passed = (json.smart_status as { passed?: unknown } | undefined)?.passed;
  const temperature = (json.temperature as { current?: unknown } | undefined)?.current;
  const hours = (json.power_on_time as { hours?: unknown } | undefined)?.hours;
  const written = bytes(241);
  const health: AtaHealth = {
    disk,
    protocol: 'ata',
    model: typeof json.model_name === 'string' ? json.model_name : null,
    smartPassed: typeof passed === 'boolean' ? passed : null,
    // smartctl's temperature.current is its reading of 194/190 (or the SCT status), in °C.
    temperatureC: typeof temperature === 'number' && Number.isFinite(temperature) ? temperature : null,
    powerOnHours: isCount(hours) ? hours : null,
    powerCycles: isCount(json.power_cycle_count) ? json.power_cycle_count : null,
    bytesWritten: written.bytes,
    bytesRead: bytes(242).bytes,
    writeUnitBytes: written.unit,
    percentageUsed: wear && wear.value <= 100 ? 100 - wear.value : null,
    wearAttribute: wear ? `${wear.id} ${wear.name}` : null,
    mediaErrors: named(187, 'Reported_Uncorrect'),
    reallocatedSectors: named(5, 'Reallocated_Sector_Ct'),
    pendingSectors: named(197, 'Current_Pending_Sector'),
    offlineUncorrectable: named(198, 'Offline_Uncorrectable'),
    attributes: attributes.map((a) => ({ id: a.id, name: a.name, value: a.value, worst: a.worst, thresh: a.thresh, raw: a.raw.string })),
  };
  return health;
}
