// The largest and smallest of a list, by a loop. Math.max(...values) passes one argument per
// value and overflows the call stack near 100,000 of them (#38): an imported run can hold that
// many samples, results or temperature readings, so nothing that can see imported data spreads.

/** The largest of `values`, null when there are none. */
export function maxOf(values: Iterable<number>): number | null {
  let max: number | null = null;
  for (const v of values) if (max === null || v > max) max = v;
  return max;
}

/** The smallest of `values`, null when there are none. */
export function minOf(values: Iterable<number>): number | null {
  let min: number | null = null;
  for (const v of values) if (min === null || v < min) min = v;
  return min;
}

/** Appends every item of `items` to `list` (list.push(...items) overflows the stack on a long list). */
export function appendAll<T>(list: T[], items: Iterable<T>): void {
  for (const item of items) list.push(item);
}
