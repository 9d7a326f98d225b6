// Helpers shared by the importers: exact decimal parsing and result building. Test ids come
// from the catalog (model/catalog.ts testIdFor), re-exported here for the importers.
import { ImportError } from './import-error.ts';

/**
 * A decimal string times 10^shift, computed on the digits rather than in floating point, so
 * "7427.749" MB/s becomes exactly 7427749000 bytes/s (7427.749 * 1e6 is 7427748999.999999).
 * Returns null for anything that is not a plain non-negative decimal number.
 */
export function scaleDecimal(text: string, shift: number): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim().replace(/,/g, ''));
  if (!m) return null;
  const whole = m[1] ?? '';
  const frac = m[2] ?? '';
  if (shift >= frac.length) {
    const value = Number(whole + frac + '0'.repeat(shift - frac.length));
    return Number.isFinite(value) ? value : null;
  }
  const value = Number(`${whole}${frac.slice(0, shift)}.${frac.slice(shift)}`);
  return Number.isFinite(value) ? value : null;
}

export { blockSizeLabel, testIdFor } from '../../shared/model/catalog.ts';

// Result builders live in shared/model (pure: the forecast builds results from spec sheets too).
export { emptyLatency, hasLatency, resultWithoutRuns } from '../../shared/model/result-builders.ts';

/**
 * Unique test names within one run: a second result with the same name gets the source's own
 * label, a third and later ones a number too. The next number per name is remembered, so a
 * file with 200,000 jobs of one name costs 200,000 steps, not 200,000² / 2 (a linear search
 * from #2 each time made such an fio file take minutes).
 */
export class UniqueNames {
  readonly #taken = new Set<string>();
  readonly #next = new Map<string, number>();

  take(name: string, qualifier: string): string {
    let candidate = this.#taken.has(name) ? `${name}:${qualifier}` : name;
    if (this.#taken.has(candidate)) {
      const base = candidate;
      let n = this.#next.get(base) ?? 2;
      for (candidate = `${base}#${n}`; this.#taken.has(candidate); candidate = `${base}#${n}`) n++;
      this.#next.set(base, n + 1);
    }
    this.#taken.add(candidate);
    return candidate;
  }
}

export { maxOf } from '../../shared/model/extremes.ts';

/**
 * More lines than any report a tool writes (a bonnie++ file of 1,000 runs with its text is
 * ~40,000). An array of 45 million empty lines, a 45 MB file of newlines, took 1.4 GB.
 */
export const MAX_TEXT_LINES = 100_000;

/**
 * Text lines without their terminators (LF or CRLF); a UTF-8 BOM is already stripped. The
 * lines are counted first, without building anything, so a file of millions of lines is
 * refused before an array of them is made.
 */
export function splitLines(text: string, fileName: string): string[] {
  let count = 1;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) {
    if (++count > MAX_TEXT_LINES) {
      throw new ImportError(
        fileName,
        null,
        `too many lines (more than ${MAX_TEXT_LINES.toLocaleString('en')}): no benchmark report is that long`,
      );
    }
  }
  return text.split(/\r?\n/);
}

/** Each line of `text` (as splitLines) with its 0-based index, one at a time: for detection, which never throws. */
export function* eachLine(text: string): Generator<[string, number]> {
  let start = 0;
  for (let index = 0; ; index++) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    yield [line.endsWith('\r') ? line.slice(0, -1) : line, index];
    if (end === -1) return;
    start = end + 1;
  }
}

/** Size strings the benchmark tools print: "1 GiB", "512 MiB", "256M", "1G" (binary units). */
export function parseToolSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?$/i.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? '').toLowerCase();
  const power = unit === '' ? 0 : 'kmgt'.indexOf(unit) + 1;
  // The tools print binary sizes: bonnie++ "1G" is 1 GiB, KDiskMark/CrystalDiskMark say GiB.
  const value = Number(m[1]) * 1024 ** power;
  return Number.isFinite(value) ? Math.round(value) : null;
}
