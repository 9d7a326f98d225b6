/** Series colours come from CSS variables so that light and dark themes both read well. */
export const SERIES_COLORS = [
  'var(--series-0)',
  'var(--series-1)',
  'var(--series-2)',
  'var(--series-3)',
  'var(--series-4)',
  'var(--series-5)',
];
