// A drive's own temperature, where the kernel exposes it without root: the hwmon device that
// the NVMe driver registers for each controller (name "nvme", the SMART log's Composite
// temperature, read by the kernel on every read of temp1_input) and the one `drivetemp`
// registers for a SATA disk (its SCT status or SMART attribute 194). Both are found the same
// way: each /sys/class/hwmon/hwmonN's `device` link names the device it was registered on (an
// NVMe controller: the nvmeN class device on current kernels, the PCI function on the first ones; a SATA
// disk's SCSI device), and the disk's own sysfs directory lies beneath that device. Values are
// millidegrees Celsius. Everything reads under a root, so the tests run on planted trees.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openRegularFile, READ_BOUND_MS, withinBound } from '../files/read-bounded.ts';
import { explain, inRoot, listDir, readText, resolveInRoot, rootOf, type Read, type RootOptions } from './sysfs.ts';

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

/**
 * A limit attribute in °C, or null where the drive does not report it (or reports nonsense, as
 * NVMe's unset 65261.85 °C). Read as the temperature is: NVMe's limits are a command to the drive too.
 */
async function limitC(root: string, abs: string): Promise<number | null> {
  const read = await readSensorValue(root, abs);
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
    const first = await readSensorValue(root, input);
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

/**
 * Where a working drive's temperature can be: from the lowest any drive is rated to run at
 * (industrial parts: −40 °C) to where silicon stops working (150 °C, past every drive's critical
 * temperature). A reading outside is a sensor that misreports (NVMe's "no value", 0 K, reads
 * −273.15 °C), never the drive's heat: kept, 999 °C raised drive-hot on a cool drive.
 */
export const PLAUSIBLE_C = { min: -40, max: 150 } as const;

/** A reading, or why there is none; `implausible` holds a value refused as impossible, `silent` a read that did not answer within its bound. */
export type CelsiusRead = { value: number; reason?: undefined } | { value: null; reason: string; implausible?: number; silent?: true };

/** The sensor's temperature now, °C; a reading no working drive can give is refused with why. */
export async function readCelsius(sensor: TemperatureSensor, opts?: RootOptions & { boundMs?: number }): Promise<CelsiusRead> {
  const read = await readSensorValue(rootOf(opts), sensor.input, opts?.boundMs);
  if (read.value === null) return read;
  const c = read.value / 1000;
  if (c < PLAUSIBLE_C.min || c > PLAUSIBLE_C.max)
    return {
      value: null,
      reason: `${celsius(c)}, which no working drive reads (${PLAUSIBLE_C.min} °C to ${PLAUSIBLE_C.max} °C)`,
      implausible: c,
    };
  return { value: c };
}

const celsius = (c: number) => `${Number(c.toFixed(2))} °C`;

/** cat(1), which reads the sensor in a child (readSensorValue); coreutils is on every Linux DiskDelta runs on. */
const CAT = ['/usr/bin/cat', '/bin/cat'].find((p) => existsSync(p)) ?? 'cat';

/**
 * A sensor attribute's number. Reading temp1_input makes the kernel ask the drive (NVMe: the
 * SMART log; drivetemp: an SCT or SMART command), so a drive that does not answer holds the
 * read in the kernel for as long as its driver's timeouts and resets take (minutes). The read
 * is therefore done by a child, cat(1) reading the descriptor opened here (without waiting, and
 * only a regular file: files/read-bounded.ts): after the bound the child is killed and left, and
 * no thread of this process waits on the drive (one waiting would keep even process.exit() from
 * ending the run).
 */
export async function readSensorValue(root: string, abs: string, boundMs = READ_BOUND_MS): Promise<CelsiusRead> {
  const file = inRoot(root, abs);
  const opening = openRegularFile(file);
  let handle;
  try {
    handle = await withinBound(opening, boundMs, abs, file);
  } catch (error) {
    opening.then(
      (h) => h.close(),
      () => {},
    ); // opened after all, too late: closed
    const silent = (error as { code?: string }).code === 'ETIMEDOUT';
    return { value: null, reason: explain(abs, error), ...(silent ? { silent } : {}) };
  }
  let child;
  try {
    child = spawn(CAT, [], { stdio: [handle.fd, 'pipe', 'pipe'] });
  } catch (error) {
    await handle.close();
    return { value: null, reason: `${abs} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  // Listening before anything is awaited: a child that ends at once must not end unheard.
  const answer = new Promise<Read<string> | { value: null; reason: string; silent: true }>((resolve) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      child.unref();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ value: null, reason: `${abs} did not answer within ${boundMs / 1000} s`, silent: true });
    }, boundMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (out = (out + chunk).slice(0, 4096)));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (err = (err + chunk).slice(0, 4096)));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ value: null, reason: `${abs} could not be read: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // cat says "cat: -: Input/output error": the errno's words are the reason.
      const why =
        err
          .trim()
          .split('\n')
          .at(-1)
          ?.replace(/^cat: -: /, '') || `cat exited with ${code}`;
      resolve(code === 0 ? { value: out.trim() } : { value: null, reason: `${abs} cannot be read here (${why})` });
    });
  });
  await handle.close(); // the child holds its own copy
  const text = await answer;
  if (text.value === null) return text;
  const n = Number(text.value);
  if (text.value === '' || !Number.isFinite(n)) return { value: null, reason: `${abs} holds '${text.value}', not a number` };
  return { value: n };
}
