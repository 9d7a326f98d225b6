// bench:engine's comparison of DiskDelta with "fio's best engine", for one figure (IOPS or
// CPU per I/O) of one test over alternating rounds.
//
// The best engine is chosen once, by its median over all rounds, and DiskDelta is compared
// with that engine's figure round by round. Taking the better of fio's two engines in each
// round instead would compare one noisy sample with the best of two: when all three tools
// are equal (a test the kernel limits, where every tool runs the same kernel path) the
// best-of-two wins most rounds, and DiskDelta showed 0.86–0.97 × "fio's best" on such a
// test with nothing to gain. scripts/best-engine.test.ts shows that bias.
import { median } from '../electron/shared/analysis/statistics.ts';
import { pairedVerdict } from './paired-ratio.ts';

export interface VersusBest {
  /** The fio engine compared with: the better median over the rounds. */
  engine: string;
  /** Median of the per-round ratios DiskDelta / that engine. */
  ratio: number;
  /** Uncertainty of that median, relative (about one standard error; see paired-ratio.ts). */
  medianNoise: number;
}

/**
 * @param ours DiskDelta's figure, one per round
 * @param engines each fio engine's figure, one per round, in the same order
 * @param higherIsBetter true for IOPS, false for CPU per I/O
 */
export function versusBestEngine(ours: number[], engines: Record<string, number[]>, higherIsBetter: boolean): VersusBest {
  const names = Object.keys(engines);
  if (names.length === 0 || ours.length === 0) throw new Error('versusBestEngine needs figures of DiskDelta and of at least one engine');
  for (const name of names)
    if (engines[name]!.length !== ours.length)
      throw new Error(`${name} has ${engines[name]!.length} rounds, DiskDelta ${ours.length}: the rounds must pair up`);
  const better = (a: number, b: number) => (higherIsBetter ? a > b : a < b);
  const engine = names.reduce((best, name) => (better(median(engines[name]!), median(engines[best]!)) ? name : best));
  const ratios = ours.map((x, i) => x / engines[engine]![i]!);
  const { ratio, medianNoise } = pairedVerdict(ratios);
  return { engine, ratio, medianNoise };
}
