// The verdict of bench:vs-fio for one test, from its per-round ratios DiskDelta / fio. On a
// shared, unthrottled disk the ratios of single rounds spread far wider than the ±5 %
// tolerance (0.75 to 3.4 was seen), and then "OUTSIDE ±5 %" would blame the tool for the
// machine's noise: the verdict says "undecided" and how large the noise is instead.
import { median } from '../electron/shared/analysis/statistics.ts';

export const TOLERANCE = 0.05;

export interface PairedVerdict {
  ratio: number;
  min: number;
  max: number;
  /** Robust spread of one round's ratio around the median (1.4826 × MAD ≈ one standard deviation), relative. */
  roundNoise: number;
  /** Uncertainty of the median itself, relative: about 1.25 × roundNoise / √rounds. */
  medianNoise: number;
  verdict: 'within' | 'outside' | 'undecided';
  text: string;
}

export function pairedVerdict(ratios: number[], tolerance = TOLERANCE): PairedVerdict {
  if (ratios.length === 0) throw new Error('pairedVerdict needs at least one ratio');
  const ratio = median(ratios);
  const mad = median(ratios.map((r) => Math.abs(r - ratio)));
  const roundNoise = (1.4826 * mad) / ratio;
  const medianNoise = (1.2533 * roundNoise) / Math.sqrt(ratios.length);
  const off = Math.abs(ratio - 1);
  // Two standard errors either side: a median that could still be inside the band is not
  // called outside, whatever its value.
  const verdict = off <= tolerance ? 'within' : off - 2 * medianNoise * ratio <= tolerance ? 'undecided' : 'outside';
  const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
  const tol = `±${(tolerance * 100).toFixed(0)} %`;
  const text =
    verdict === 'within'
      ? `within ${tol}`
      : verdict === 'outside'
        ? `OUTSIDE ${tol}`
        : `undecided: this machine's noise (±${pct(2 * medianNoise)} on the median) is larger than ${tol}`;
  return { ratio, min: Math.min(...ratios), max: Math.max(...ratios), roundNoise, medianNoise, verdict, text };
}
