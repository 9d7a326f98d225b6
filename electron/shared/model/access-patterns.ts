// THE table of a rate test's access patterns, like PATTERNS in native/src/job.c: fio's rw=
// vocabulary plus bonnie++'s seeks. The result schema (schemas.ts: a test's rw), the test ids
// and titles (test-params.ts, catalog.ts) and `diskdelta run --job` read it; test-params.test.ts
// checks it against the worker's own --help. Its own module because the schema takes the names
// from it while test-params.ts takes the parameters' type from the schema.
//
// Pure data: the renderer bundles it.

/** What a pattern's words and id read of a test's parameters: a TestParams is one (not named here, see above). */
type PatternParams = { readonly readPercent?: number | undefined };

export interface PatternDef {
  /** As the worker's rw= names it. */
  name: string;
  random: boolean;
  /** It writes to the target (refused on block devices). */
  writes: boolean;
  /** In words, for titles: "sequential read". */
  words: (p: PatternParams) => string;
  /** Its test id from the shape ("1m-q8t1"): "seq1m-q8t1-read". */
  id: (shape: string, p: PatternParams) => string;
  help: string;
}

/** The access patterns, in the worker's order (job.c PATTERNS). */
export const ACCESS_PATTERNS = [
  {
    name: 'read',
    random: false,
    writes: false,
    words: () => 'sequential read',
    id: (s: string) => `seq${s}-read`,
    help: 'sequential read',
  },
  {
    name: 'write',
    random: false,
    writes: true,
    words: () => 'sequential write',
    id: (s: string) => `seq${s}-write`,
    help: 'sequential write, fsync inside the timed window',
  },
  { name: 'randread', random: true, writes: false, words: () => 'random read', id: (s: string) => `rnd${s}-read`, help: 'random read' },
  {
    name: 'randwrite',
    random: true,
    writes: true,
    words: () => 'random write',
    id: (s: string) => `rnd${s}-write`,
    help: 'random write, fsync inside the timed window',
  },
  {
    name: 'randrw',
    random: true,
    writes: true,
    words: (p: PatternParams) => `random ${p.readPercent ?? 50} % read mix`,
    id: (s: string, p: PatternParams) => `mix${p.readPercent ?? 50}-rnd${s}`,
    help: 'mixed random read/write (read=PCT)',
  },
  // Seeks rewrite every 10th block on a file, but on a block device they only read (with a
  // warning), so they are not refused there.
  { name: 'seeks', random: true, writes: false, words: () => 'random seeks', id: () => 'seeks', help: 'bonnie++ Random Seeks' },
] as const satisfies readonly PatternDef[];

/** Access pattern, as the worker names it. */
export type AccessPattern = (typeof ACCESS_PATTERNS)[number]['name'];

export const ACCESS_PATTERN_NAMES = ACCESS_PATTERNS.map((p) => p.name) as [AccessPattern, ...AccessPattern[]];

export function patternOf(rw: AccessPattern): PatternDef {
  return ACCESS_PATTERNS.find((p) => p.name === rw)!;
}
