// What a drive's temperature says about a run's figures. An SSD that gets too hot slows
// itself down to cool (NVMe's thermal management, from its warning temperature on): a figure
// measured then is the drive's thermal limit, not its speed. A figure also falls when a
// write fills the drive's SLC cache, at any temperature; so a fall is put down to heat only
// when the drive warmed while it fell AND was near its hot mark, never from the fall alone.
import type { DriveTemperature, TestResult, Warning } from '../model/results.ts';
import { celsiusText as deg } from '../model/temperature-text.ts';
import { maxOf } from '../model/extremes.ts';
import { formatThroughput } from './units.ts';

/**
 * Where DiskDelta assumes a drive starts to throttle when it reports no warning temperature:
 * NVMe drives' warning temperatures (WCTEMP) are 70–85 °C, and 70 °C is also the highest
 * continuous temperature SATA SSDs are specified for.
 */
export const ASSUMED_HOT_C = 70;
/** A test's figure fell by at least this share from its first run to its last … */
const FALL = 0.1;
/** … while the drive warmed by at least this much during the test … */
const RISE_C = 2;
/** … and came within this much of its hot mark: thermal throttling. */
const NEAR_C = 5;

type Readings = Extract<DriveTemperature, { sensor: 'nvme' | 'drivetemp' }>;

/** The temperature from which the drive is hot, and where that figure comes from. */
export function hotMark(t: Readings): { celsius: number; basis: string } {
  if (t.maxC !== null) return { celsius: t.maxC, basis: `its warning temperature, ${deg(t.maxC)}` };
  return {
    celsius: ASSUMED_HOT_C,
    basis: `${deg(ASSUMED_HOT_C)} (the drive reports no warning temperature; DiskDelta assumes the usual one)`,
  };
}

/** The run's warnings (the drive got hot) and each test's (its figure fell as the drive heated). */
export function thermalWarnings(results: readonly TestResult[], t: DriveTemperature): { run: Warning[]; byTest: Map<string, Warning> } {
  const byTest = new Map<string, Warning>();
  if (t.sensor === null || t.peakC === null) return { run: [], byTest };
  const hot = hotMark(t);
  const run: Warning[] = [];
  if (t.peakC >= hot.celsius) {
    const critical = t.critC !== null && t.peakC >= t.critC;
    run.push({
      code: 'drive-hot',
      message:
        `${t.disk} reached ${deg(t.peakC)}, ${critical ? `its critical temperature (${deg(t.critC!)}) or above` : `at or above ${hot.basis}`}: ` +
        'a drive that hot slows itself down to cool, so figures measured then may be its thermal limit, not its speed. Let it cool, give it airflow or a heatsink, and run again',
    });
  }
  for (const r of results) {
    const readings = t.readings.filter((x) => x.test === r.test);
    const runs = r.runs.map((m) => m.bytesPerSec);
    if (readings.length < 2 || runs.length < 2) continue;
    const [first, last] = [runs[0]!, runs.at(-1)!];
    const rise = readings.at(-1)!.celsius - readings[0]!.celsius;
    const peak = maxOf(readings.map((x) => x.celsius))!;
    if (first > 0 && last <= first * (1 - FALL) && rise >= RISE_C && peak >= hot.celsius - NEAR_C) {
      byTest.set(r.test, {
        code: 'thermal-throttling',
        message:
          `its runs fell from ${formatThroughput(first)} to ${formatThroughput(last)} while ${t.disk} warmed from ${deg(readings[0]!.celsius)} to ${deg(readings.at(-1)!.celsius)}, ` +
          `near ${hot.basis}: the drive slowed itself down to cool. The figure is its speed when hot; let it cool and run again for its speed when cool`,
      });
    }
  }
  return { run, byTest };
}
