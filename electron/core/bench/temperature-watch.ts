// Reads the drive's temperature around a run: once before the first test, every few seconds
// while the worker measures (each reading tagged with the test then running), once after the
// last. Every 2 s by default: drivetemp reads a SATA drive's temperature with a SMART/SCT
// command that is not queued, so each reading briefly drains the drive's command queue, and a
// reading a second would be felt in the figures of a short test; NVMe's is an admin command
// on its own queue. A reading that fails is skipped, never a reason to stop the run.
import type { DriveTemperature, TemperatureReading } from '../model/results.ts';
import { findTemperatureSensor, readCelsius, type TemperatureSensor } from '../system/drive-temperature.ts';

export interface TemperatureWatchOptions {
  /** The filesystem root sysfs is read under: '/' live, a planted tree in tests. */
  root?: string;
  /** Milliseconds between readings while measuring. */
  intervalMs?: number;
}

export interface TemperatureWatch {
  /** The test now running (from the run's progress), for the readings that follow. */
  setTest(test: string | null): void;
  /** Stops reading, takes the reading after, and returns them all. */
  stop(): Promise<DriveTemperature>;
}

export const TEMPERATURE_INTERVAL_MS = 2000;

export async function watchTemperature(disk: string | null | undefined, opts: TemperatureWatchOptions = {}): Promise<TemperatureWatch> {
  const unread = (reason: string): TemperatureWatch => ({
    setTest() {},
    stop: () => Promise.resolve({ disk: disk ?? null, sensor: null, reason }),
  });
  if (!disk) return unread('the disk under the target is not known, so neither is its temperature sensor');
  const found = await findTemperatureSensor(disk, { root: opts.root });
  if (found.value === null) return unread(found.reason);
  const sensor: TemperatureSensor = found.value;
  const started = performance.now();
  const readings: TemperatureReading[] = [];
  let test: string | null = null;
  /**
   * One reading; `during` tags it with the test running. A reading takes time (a file read here,
   * a SMART command on a SATA drive), and one during which the next test began belongs to
   * neither: it is kept untagged. Tagged with the test at its start, a busy machine's slow read
   * gave the read test the write test's heat (temperature-watch.test.ts failed so under load).
   */
  const read = async (during: boolean) => {
    const testAtStart = during ? test : null;
    const c = await readCelsius(sensor, { root: opts.root });
    if (c.value === null) return null;
    const reading: TemperatureReading = { tSec: (performance.now() - started) / 1000, celsius: c.value };
    if (testAtStart && testAtStart === test) reading.test = testAtStart;
    readings.push(reading);
    return c.value;
  };
  const beforeC = await read(false);
  // One reading at a time: a slow sensor (a busy SATA drive) never piles reads up.
  let pending: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(() => read(true));
  }, opts.intervalMs ?? TEMPERATURE_INTERVAL_MS);
  timer.unref();
  return {
    setTest(next) {
      test = next;
    },
    async stop() {
      clearInterval(timer);
      await pending;
      const afterC = await read(false);
      return {
        disk,
        sensor: sensor.driver,
        label: sensor.label,
        beforeC,
        afterC,
        peakC: readings.length ? Math.max(...readings.map((r) => r.celsius)) : null,
        maxC: sensor.maxC,
        critC: sensor.critC,
        readings,
      };
    },
  };
}
