// Compare's encryption section and Overview's cipher table, computed from the runs and the
// cipher ceilings with the one model in shared/analysis/encryption.ts: measured bars, a forecast
// bar (estimated) for every unencrypted run, and the cipher ceiling as a line.
import { allCpuCeiling, cipherRates, FORECAST_ACCURACY_SENTENCE, forecastRun } from '../../../electron/shared/analysis/encryption.ts';
import { bytesPerSecTo, type ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { CipherCeilings } from '../../../electron/shared/model/cipher-types.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
// One test of "is this run encrypted" for Compare, compare and the report (analysis/encryption-story.ts).
import { isEncryptedRun } from '../../../electron/shared/report/report-model.ts';

// The sequential test the runs share, chosen as the report's encryption section chooses it.
import { sharedSequentialTest } from '../../../electron/shared/analysis/encryption-story.ts';

export interface EncryptionRow {
  label: string;
  runIndex: number;
  encrypted: boolean;
  /** Measured, in the display unit. */
  measured: number | null;
  /** The forecast under dm-crypt on this CPU (estimated), in the display unit; null for encrypted runs. */
  forecast: number | null;
}

export interface EncryptionView {
  test: string;
  write: boolean;
  rows: EncryptionRow[];
  /** The cipher's ceiling for this direction on all CPUs, display unit; null when not measured. */
  cipherLine: number | null;
  cipherLineOneCore: number | null;
  sourceLabel: string | null;
  /** How close the forecast came in the lab (FORECAST_ACCURACY_SENTENCE) when a forecast is drawn; else null. */
  accuracy: string | null;
}

export function buildEncryptionView(
  records: RunRecord[],
  ceilings: CipherCeilings | null,
  unit: ThroughputUnit,
  cipher = 'aes-xts-plain64',
  keyBits = 512,
): EncryptionView | null {
  const test = sharedSequentialTest(records);
  if (!test) return null;
  const write = test.endsWith('write');
  const rates = ceilings ? cipherRates(ceilings, cipher, keyBits) : null;
  const to = (bps: number | null | undefined) => (bps === null || bps === undefined ? null : bytesPerSecTo(bps, unit));
  // A bar pair per run that holds the test: none left empty for a run without it (#39).
  const rows = records.flatMap((r, runIndex): EncryptionRow[] => {
    const encrypted = isEncryptedRun(r);
    const measured = r.results.find((x) => x.test === test)?.bytesPerSec ?? null;
    if (measured === null) return [];
    const forecast = !encrypted && rates ? (forecastRun(r, rates).find((f) => f.test === test)?.estimatedBytesPerSec ?? null) : null;
    return [{ label: r.label || `run ${runIndex + 1}`, runIndex, encrypted, measured: to(measured), forecast: to(forecast) }];
  });
  return {
    test,
    write,
    rows,
    // The model's own ceiling, so the line and the forecast bars never disagree.
    cipherLine: rates ? to(allCpuCeiling(rates, write)) : null,
    cipherLineOneCore: rates ? to(write ? rates.encrypt1 : rates.decrypt1) : null,
    sourceLabel: ceilings?.sourceLabel ?? null,
    accuracy: rows.some((r) => r.forecast !== null) ? FORECAST_ACCURACY_SENTENCE : null,
  };
}

/** Overview's table: one row per cipher, key and sector size; one and all threads. */
export function cipherTableRows(c: CipherCeilings) {
  const keys = [...new Map(c.figures.map((f) => [`${f.cipher}:${f.keyBits}:${f.sectorBytes}`, f])).values()];
  const threads = [...new Set(c.figures.map((f) => f.threads))].sort((a, b) => a - b);
  return {
    threads,
    rows: keys.map((k) => ({
      key: `${k.cipher}:${k.keyBits}:${k.sectorBytes}`,
      cipher: k.cipher,
      keyBits: k.keyBits,
      sectorBytes: k.sectorBytes,
      cells: threads.map(
        (t) =>
          c.figures.find((f) => f.cipher === k.cipher && f.keyBits === k.keyBits && f.sectorBytes === k.sectorBytes && f.threads === t) ??
          null,
      ),
    })),
  };
}
