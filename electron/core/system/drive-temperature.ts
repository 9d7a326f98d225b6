// A drive's own temperature, where the kernel exposes it without root: the hwmon device that
// the NVMe driver registers for each controller (name "nvme", the SMART log's Composite
// temperature, read by the kernel on every read of temp1_input) and the one `drivetemp`
// registers for a SATA disk (its SCT status or SMART attribute 194). Both are found the same
// way: each /sys/class/hwmon/hwmonN's `device` link names the device it was registered on (an
// NVMe controller: the nvmeN class device on current kernels, the PCI function on the first ones; a SATA
// disk's SCSI device), and the disk's own sysfs directory lies beneath that device. Values are
// millidegrees Celsius. Everything reads under a root, so the tests run on planted trees.
import path from 'node:path';
import { listDir, readNumber, readText, resolveInRoot, rootOf, type Read, type RootOptions } from './sysfs.ts';

/** The hwmon drivers that report a drive's own temperature. */
const DRIVE_SENSORS = ['nvme', 'drivetemp'] as const;
export type DriveSensorDriver = (typeof DRIVE_SENSORS)[number];

export interface TemperatureSensor {
  /** The whole disk it belongs to (kernel name). */
  disk: string;
  driver: DriveSensorDriver;
  /** The hwmon directory, absolute inside the root (/sys/devices/…/hwmon3). */
  hwmon: string;
  /** Which reading: "Composite" (NVMe's temp1_label), "temp1" where there is no label. */
  label: string;
  /** The attribute read for the current temperature. */
  input: string;
  /** The drive's own limits, °C: where it warns (NVMe WCTEMP; SATA: the highest recommended for continuous use) and its critical one. */
  maxC: number | null;
  critC: number | null;
}

/**
 * The directories a disk's sensor may sit above: the disk's own, and for an NVMe multipath
 * head (/sys/devices/virtual/nvme-subsystem/…) the per-controller paths it lists.
 */
async function diskDirs(root: string, disk: string): Promise<string[]> {
  const own = await resolveInRoot(root, `/sys/block/${disk}`);
  if (!own) return [];
  const paths = await Promise.all((await listDir(root, `${own}/multipath`)).map((p) => resolveInRoot(root, `${own}/multipath/${p}`)));
  return [own, ...paths.filter((p): p is string => p !== null)];
}

/** A limit attribute in °C, or null where the drive does not report it (or reports nonsense, as NVMe's unset 65261.85 °C). */
async function limitC(root: string, abs: string): Promise<number | null> {
  const read = await readNumber(root, abs);
  if (read.value === null) return null;
  const c = read.value / 1000;
  return c > 0 && c < 200 ? c : null;
}

/** The sensor of `disk` (a whole disk's kernel name: nvme0n1, sda), or why there is none. */
export async function findTemperatureSensor(disk: string, opts?: RootOptions): Promise<Read<TemperatureSensor>> {
  const root = rootOf(opts);
  const dirs = await diskDirs(root, disk);
  if (dirs.length === 0) return { value: null, reason: `/sys/block/${disk} does not exist` };
  const hwmons = await listDir(root, '/sys/class/hwmon');
  for (const entry of hwmons) {
    const hwmon = await resolveInRoot(root, `/sys/class/hwmon/${entry}`);
    const name = hwmon ? (await readText(root, `${hwmon}/name`)).value : null;
    if (!hwmon || !DRIVE_SENSORS.includes(name as DriveSensorDriver)) continue;
    const device = await resolveInRoot(root, `${hwmon}/device`);
    if (!device || !dirs.some((d) => d.startsWith(device + path.posix.sep))) continue;
    // NVMe: temp1 is the Composite temperature (the one the drive throttles on); tempN≥2 are
    // its sensors. drivetemp has only temp1.
    const label = (await readText(root, `${hwmon}/temp1_label`)).value ?? 'temp1';
    const input = `${hwmon}/temp1_input`;
    const first = await readNumber(root, input);
    if (first.value === null) return { value: null, reason: `${name} sensor of ${disk}: ${first.reason}` };
    return {
      value: {
        disk,
        driver: name as DriveSensorDriver,
        hwmon,
        label,
        input,
        maxC: await limitC(root, `${hwmon}/temp1_max`),
        critC: await limitC(root, `${hwmon}/temp1_crit`),
      },
    };
  }
  const why = disk.startsWith('nvme')
    ? 'the NVMe driver registered no hwmon sensor for it (a kernel without CONFIG_NVME_HWMON, or one older than 5.5)'
    : /^sd[a-z]+$/.test(disk)
      ? 'no drivetemp sensor for it (a SATA drive reports its temperature once the drivetemp module is loaded: modprobe drivetemp; USB sticks and most USB bridges do not)'
      : 'the kernel exposes no temperature for this kind of device';
  return { value: null, reason: `${disk}: ${why}` };
}

/** The sensor's temperature now, °C. */
export async function readCelsius(sensor: TemperatureSensor, opts?: RootOptions): Promise<Read<number>> {
  const read = await readNumber(rootOf(opts), sensor.input);
  return read.value === null ? read : { value: read.value / 1000 };
}
