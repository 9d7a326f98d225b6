// Which ticks of a chart's x axis are labelled at the width it is drawn: every tick of an 18-size
// block sweep fits at 1280 px, but at 390 px "512 B 1 KiB 2 KiB …" ran into one unreadable
// string. Whole labels are kept and thinned out (every other, every third…), never shortened:
// a shortened "128…" would stop telling the sizes apart. Pure, so Node tests run it.

/** Pixels per character of an 11 px tick label (DejaVu Sans: ~6 px a character there). */
export const TICK_CHAR_PX = 6.2;
/** The least free space between two neighbouring tick labels. */
export const TICK_GAP_PX = 6;

/**
 * The ticks to label, in order: all of them when they fit, else every k-th from the first for
 * the smallest k whose labels do not touch. The last tick is kept in place of its neighbour
 * when they would touch, so the axis still says where it ends.
 * `position` maps a tick to pixels along the axis (0 … plotWidthPx).
 */
export function fitTicks<T>(ticks: readonly T[], label: (tick: T) => string, position: (tick: T) => number, charPx = TICK_CHAR_PX): T[] {
  if (ticks.length <= 2) return [...ticks];
  const half = (t: T) => (label(t).length * charPx) / 2;
  const apart = (a: T, b: T) => Math.abs(position(b) - position(a)) >= half(a) + half(b) + TICK_GAP_PX;
  const fits = (kept: readonly T[]) => kept.every((t, i) => i === 0 || apart(kept[i - 1]!, t));
  for (let step = 1; step < ticks.length; step++) {
    const kept = ticks.filter((_, i) => i % step === 0);
    const last = ticks.at(-1)!;
    if (kept.at(-1) !== last) {
      // The end of the axis is labelled: it takes the place of the kept tick it would touch.
      if (!apart(kept.at(-1)!, last)) kept.pop();
      kept.push(last);
    }
    if (fits(kept)) return kept;
  }
  return [ticks[0]!, ticks.at(-1)!].filter((t, i, all) => i === 0 || apart(all[0]!, t));
}

/** Round steps (1, 2 or 5 × 10^n) from zero to at least max: an axis that reads at a glance. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A log axis's ticks: powers of ten inside [low, high] (1, 10, 100 MB/s: recharts' own log ticks read "200, 60, 3, 0.9"); with 1, 2 and 5 of each decade when fewer than 3 fit. */
export function logTicks(low: number, high: number): number[] {
  const inside = (v: number) => v >= low * (1 - 1e-9) && v <= high * (1 + 1e-9);
  const decades: number[] = [];
  for (let p = Math.floor(Math.log10(low)); p <= Math.ceil(Math.log10(high)); p++) decades.push(10 ** p);
  const powers = decades.filter(inside);
  if (powers.length >= 3) return powers;
  return decades.flatMap((d) => [d, 2 * d, 5 * d]).filter(inside);
}

/**
 * A series chart's x axis at a drawn width, in axis positions (log2 of a block size): the
 * model's own ticks (a sweep's sizes) or round steps from zero, thinned to what fits, and the
 * domain they span. A linear axis ends on its last round step, not on the last sample's
 * "104 ms" squeezed beside "90 ms".
 */
export function seriesXAxis(
  axis: { scale: 'linear' | 'log2'; ticks?: number[] | undefined; domain?: [number, number] | undefined },
  positions: readonly number[],
  plotWidthPx: number,
  label: (position: number) => string,
): { ticks: number[]; domain: [number, number] } {
  const position = (x: number) => (axis.scale === 'log2' ? Math.log2(x) : x);
  // A span the model sets (a time axis from 0 to the longest test's end) is drawn exactly, as
  // the report draws it; its round steps are those inside it.
  if (axis.domain) {
    const [lo, hi] = axis.domain.map(position) as [number, number];
    const inside = (axis.ticks ? axis.ticks.map(position) : niceTicks(hi)).filter((t) => t >= lo && t <= hi);
    const px = (p: number) => (hi > lo ? ((p - lo) / (hi - lo)) * plotWidthPx : 0);
    return { ticks: fitTicks(inside, label, px), domain: [lo, hi] };
  }
  const all = axis.ticks ? axis.ticks.map(position) : niceTicks(Math.max(0, ...positions));
  const span = [...positions, ...all];
  const lo = axis.scale === 'log2' ? Math.min(...span) : 0;
  const hi = Math.max(lo, ...span);
  const px = (p: number) => (hi > lo ? ((p - lo) / (hi - lo)) * plotWidthPx : 0);
  return { ticks: fitTicks(all, label, px), domain: [lo, hi] };
}
