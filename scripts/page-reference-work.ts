// A fixed piece of in-page work (sorting 300,000 numbers): what this machine's load makes of a
// constant, timed in the same page and round as a benchmark's figures, so they read as ratios
// to it (bench:app, bench:fleet-page). Text, for page.evaluate.
export const REFERENCE_WORK = `(() => {
  const t = performance.now();
  const a = Array.from({ length: 300000 }, (_, i) => (i * 7919) % 100003);
  a.sort((x, y) => x - y);
  return performance.now() - t;
})()`;
