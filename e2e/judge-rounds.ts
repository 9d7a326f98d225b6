// The dm-crypt lab's verdict on an accuracy measured in alternating rounds (ABAB…: the two
// sides of a ratio measured next to each other, round after round, in one guest boot). The
// emulated CPU's speed follows the host's load and drifted 45–130 % within one boot, so one
// pair says nothing; the ratio of each round does, since a drift hits both of its sides.
//
// The figure judged is the median of the per-round ratios. Its tolerance is the issue's own
// (±10 % for a cipher figure, ±15 % for a forecast) plus what this boot's rounds say about the
// median's own uncertainty: two standard errors from the rounds' spread (1.4826 × MAD, as
// bench:vs-fio's paired-ratio.ts, which the noise comes from). That spread has a ceiling:
// beyond MAX_SPREAD the median is known too loosely to tell a model error from the host's
// load, and the verdict is "not judged", with the spread and the rounds printed — never a
// tolerance that widens until nothing can fail.
import { pairedVerdict } from '../scripts/paired-ratio.ts';

/** Past this uncertainty of the median (±, two standard errors) an accuracy is not judged. */
export const MAX_SPREAD = 0.35;
/** Fewer rounds than this have no spread worth the name. */
export const MIN_ROUNDS = 3;

export interface RoundsJudgement {
  ratios: number[];
  /** The median of the per-round ratios. */
  ratio: number;
  /** ± on the median: two standard errors from the rounds' spread, relative. */
  spread: number;
  /** base + spread; null when not judged. */
  tolerance: number | null;
  verdict: 'within' | 'outside' | 'not-judged';
  /** "per round 1.02 0.97 …; median 0.99, allowed ±21 % (15 % + the rounds' spread ±6 %): within" */
  text: string;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function judgeRounds(ratios: number[], base: number, maxSpread = MAX_SPREAD): RoundsJudgement {
  if (ratios.length === 0) throw new Error('judgeRounds needs at least one round');
  const paired = pairedVerdict(ratios, base);
  const spread = 2 * paired.medianNoise;
  const head = `per round ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${paired.ratio.toFixed(2)}`;
  if (ratios.length < MIN_ROUNDS) {
    return {
      ratios,
      ratio: paired.ratio,
      spread,
      tolerance: null,
      verdict: 'not-judged',
      text: `${head}: not judged (${ratios.length} round${ratios.length === 1 ? '' : 's'}, fewer than ${MIN_ROUNDS}: no spread to judge by)`,
    };
  }
  if (spread > maxSpread) {
    return {
      ratios,
      ratio: paired.ratio,
      spread,
      tolerance: null,
      verdict: 'not-judged',
      text: `${head}, known within ±${pct(spread)}: not judged (the rounds' spread is above the ceiling ±${pct(maxSpread)}: the host's load moved the emulated CPU more than ±${pct(base)} can be told apart from; run it on a quiet host)`,
    };
  }
  const tolerance = base + spread;
  const within = Math.abs(paired.ratio - 1) <= tolerance;
  return {
    ratios,
    ratio: paired.ratio,
    spread,
    tolerance,
    verdict: within ? 'within' : 'outside',
    text: `${head}, allowed ±${pct(tolerance)} (${pct(base)} + the rounds' spread ±${pct(spread)}): ${within ? 'within' : 'OUTSIDE'}`,
  };
}
