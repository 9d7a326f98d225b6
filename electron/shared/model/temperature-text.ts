// A run's drive temperature in one line, the same in `diskdelta show`, the app and the report.
import type { DriveTemperature } from './results.ts';

// NVMe thresholds are kelvin − 273.15 (81.85 °C): shown to the hundredth the drive gives, no more.
export const celsiusText = (c: number) => `${Number(c.toFixed(2))} °C`;

/** "nvme0n1 (NVMe Composite): 38.85 °C before, 52 °C at most, 47 °C after; its warning 81.85 °C, critical 84.85 °C; 41 readings", or why there is none. */
export function temperatureText(t: DriveTemperature): string {
  if (t.sensor === null) return `not read: ${t.reason}`;
  const source = t.sensor === 'nvme' ? `NVMe ${t.label}` : `drivetemp ${t.label}`;
  const at = (c: number | null, what: string) => (c === null ? `${what} unread` : `${celsiusText(c)} ${what}`);
  const limits = [
    t.maxC !== null ? `warning ${celsiusText(t.maxC)}` : null,
    t.critC !== null ? `critical ${celsiusText(t.critC)}` : null,
  ].filter(Boolean);
  return (
    `${t.disk} (${source}): ${at(t.beforeC, 'before')}, ${at(t.peakC, 'at most')}, ${at(t.afterC, 'after')}` +
    (limits.length ? `; its ${limits.join(', ')}` : '') +
    `; ${t.readings.length} reading${t.readings.length === 1 ? '' : 's'}`
  );
}
