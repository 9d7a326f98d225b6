import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes } from '../analysis/units.ts';
import { fitTicks, TICK_CHAR_PX, TICK_GAP_PX } from './axis-ticks.ts';

// ATTO's 18 block sizes, 0.5 KiB … 64 MiB, on a log2 axis: equally spaced.
const SIZES = Array.from({ length: 18 }, (_, i) => 512 * 2 ** i);
const label = (b: number) => formatBytes(b);
const spaced = (width: number) => (b: number) => (Math.log2(b / 512) / 17) * width;

/** No two kept labels closer than their half-widths plus the gap: what "do not touch" means. */
function touching(kept: number[], width: number): string[] {
  const at = spaced(width);
  return kept.flatMap((t, i) => {
    if (i === 0) return [];
    const prev = kept[i - 1]!;
    const room = ((label(prev).length + label(t).length) * TICK_CHAR_PX) / 2 + TICK_GAP_PX;
    return at(t) - at(prev) < room ? [`${label(prev)} | ${label(t)}`] : [];
  });
}

test('block-size ticks: all 18 at a 1280 px chart, thinned to every k-th at a 390 px one, the ends kept, none touching', () => {
  assert.deepEqual(fitTicks(SIZES, label, spaced(880)), SIZES);
  for (const width of [200, 300, 420]) {
    const kept = fitTicks(SIZES, label, spaced(width));
    assert.ok(kept.length < SIZES.length && kept.length >= 3, `${width} px: ${kept.map(label).join(', ')}`);
    assert.deepEqual(touching(kept, width), [], `${width} px: ${kept.map(label).join(', ')}`);
    assert.equal(kept[0], 512);
    assert.equal(kept.at(-1), 64 * 1024 * 1024);
    // Whole labels, a regular step: every kept size is a real tick.
    for (const t of kept) assert.ok(SIZES.includes(t));
  }
  // At 200 px, a plot as wide as a phone leaves beside a 100 px value axis.
  assert.deepEqual(fitTicks(SIZES, label, spaced(200)).map(label), ['512 B', '8 KiB', '128 KiB', '2 MiB', '64 MiB']);
});

test('two ticks or fewer are kept as they are; ticks that never fit leave the first one', () => {
  assert.deepEqual(
    fitTicks([1, 2], String, (t) => t),
    [1, 2],
  );
  assert.deepEqual(
    fitTicks(SIZES, label, () => 0),
    [512],
  );
});
