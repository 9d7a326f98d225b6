// Reads the drive's temperature around a run: once before the first test, every few seconds
// while the worker measures (each reading tagged with the test then running), once after the
// last. Every 2 s by default: drivetemp reads a SATA drive's temperature with a SMART/SCT
// command that is not queued, so each reading briefly drains the drive's command queue, and a
// reading a second would be felt in the figures of a short test; NVMe's is an admin command
// on its own queue. A reading that fails is skipped, never a reason to stop the run.
import type { DriveTemperature, TemperatureReading, Warning } from '../../shared/model/results.ts';
import { counted } from '../../shared/model/display.ts';
import { findTemperatureSensor, PLAUSIBLE_C, readCelsius, type TemperatureSensor } from '../system/drive-temperature.ts';

export interface TemperatureWatchOptions {
  /** The filesystem root sysfs is read under: '/' live, a planted tree in tests. */
  root?: string;
  /** Milliseconds between readings while measuring. */
  intervalMs?: number;
  /** Milliseconds a reading may take before the sensor counts as not answering (READ_BOUND_MS). */
  boundMs?: number;
  /** The run's stop: once it fires, nothing here is waited for (a sensor read may be stuck in the kernel). */
  signal?: AbortSignal;
}

export interface TemperatureWatch {
  /** The test now running (from the run's progress), for the readings that follow. */
  setTest(test: string | null): void;
  /** Stops reading, takes the reading after, and returns them all. */
  stop(): Promise<DriveTemperature>;
  /** What the run should be told, once stopped: readings refused as impossible, a sensor that stopped answering. */
  warnings(): Warning[];
}

export const TEMPERATURE_INTERVAL_MS = 2000;

/** `work`'s value, or `fallback` as soon as the signal fires (the work goes on, unwaited). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, fallback: T): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(fallback);
  let onAbort = () => {};
  const aborted = new Promise<T>((resolve) => {
    onAbort = () => resolve(fallback);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

export async function watchTemperature(disk: string | null | undefined, opts: TemperatureWatchOptions = {}): Promise<TemperatureWatch> {
  const unread = (reason: string): TemperatureWatch => ({
    setTest() {},
    stop: () => Promise.resolve({ disk: disk ?? null, sensor: null, reason }),
    warnings: () => [],
  });
  if (!disk) return unread('the disk under the target is not known, so neither is its temperature sensor');
  const stopped = "the run was stopped before the drive's sensor answered";
  const found = await unlessAborted(findTemperatureSensor(disk, { root: opts.root }), opts.signal, { value: null, reason: stopped });
  if (found.value === null) return unread(found.reason);
  const sensor: TemperatureSensor = found.value;
  const started = performance.now();
  const readings: TemperatureReading[] = [];
  const refused: number[] = [];
  /** Why the sensor is no longer read: it did not answer within the bound once, so it is not asked again. */
  let silent: string | null = null;
  let test: string | null = null;
  /**
   * One reading; `during` tags it with the test running. A reading takes time (a file read here,
   * a SMART command on a SATA drive), and one during which the next test began belongs to
   * neither: it is kept untagged. Tagged with the test at its start, a busy machine's slow read
   * gave the read test the write test's heat (temperature-watch.test.ts failed so under load).
   */
  const read = async (during: boolean) => {
    if (silent !== null) return null;
    const testAtStart = during ? test : null;
    const c = await readCelsius(sensor, { root: opts.root, boundMs: opts.boundMs });
    if (c.value === null) {
      if (c.implausible !== undefined) refused.push(c.implausible);
      else if (c.silent) silent = c.reason;
      return null;
    }
    const reading: TemperatureReading = { tSec: (performance.now() - started) / 1000, celsius: c.value };
    if (testAtStart && testAtStart === test) reading.test = testAtStart;
    readings.push(reading);
    return c.value;
  };
  const beforeC = await unlessAborted(read(false), opts.signal, null);
  // One reading at a time: a slow sensor (a busy SATA drive) never piles reads up.
  let pending: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (silent !== null) clearInterval(timer);
    else pending = pending.then(() => read(true));
  }, opts.intervalMs ?? TEMPERATURE_INTERVAL_MS);
  timer.unref();
  return {
    setTest(next) {
      test = next;
    },
    async stop() {
      clearInterval(timer);
      // A stopped run waits for no reading: the one under way is left to finish on its own.
      await unlessAborted(pending, opts.signal, null);
      const afterC = await unlessAborted(read(false), opts.signal, null);
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
    warnings() {
      const said: Warning[] = [];
      if (refused.length > 0) {
        const values = [...new Set(refused.map((c) => `${Number(c.toFixed(2))} °C`))].slice(0, 3).join(', ');
        said.push({
          code: 'temperature-refused',
          message: `${counted(refused.length, 'reading')} of ${disk}'s ${sensor.driver} sensor (${values}) lay outside what a working drive can read (${PLAUSIBLE_C.min} °C to ${PLAUSIBLE_C.max} °C) and ${refused.length === 1 ? 'was' : 'were'} not kept: the sensor misreports, so its temperature says nothing here`,
        });
      }
      if (silent !== null)
        said.push({
          code: 'temperature-unanswered',
          message: `${silent}: ${disk}'s temperature was not read again in this run (a drive that does not answer its sensor's read may be failing or resetting)`,
        });
      return said;
    },
  };
}
