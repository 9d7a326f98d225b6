// THE catalog of tests and metrics: what each test is called, which kind of measurement
// runs it, which figures it yields (unit, which way is better) and the names other tools
// give it. Compare, the importers, the API's events, the CLI and the renderer look tests up
// here; nobody rebuilds a title or an id from a string's shape.
//
// A test id is an open string: a result may carry a test this catalog does not list (an
// import's own name, a test of a newer DiskDelta, a run's `--job`). Lookups answer undefined for
// those and callers fall back to a title built from the result's parameters (or those an id of
// the parameter scheme names, test-params.ts paramsFromId), else to the id itself.
//
// Pure data and functions: the renderer bundles this module.
import { patternOf } from './access-patterns.ts';
import { blockSizeLabel, paramsFromId, paramsId, type TestParams } from './test-params.ts';

export { blockSizeLabel } from './test-params.ts';
import type { RawUnit } from './figure-terms.ts';

/** Which way is better. 'none' for figures with no better side (an imported "% CPU"). */
export type Direction = 'higher' | 'lower' | 'none';

export interface MetricDef {
  id: string;
  /** As a person reads it next to a value: "throughput", "latency p99", "seconds". */
  label: string;
  unit: RawUnit;
  direction: Direction;
  /**
   * A point of a curve (a disk's surface: one per offset): drawn by its chart, not a row of
   * Compare's and the report's tables, where a hundred offsets of two disks would not line up.
   */
  curvePoint?: true;
}

/**
 * Every metric a result can carry. The rate metrics are a TestResult's own fields; the others
 * are Figures (results.ts), which name their metric by id.
 */
export const METRICS = {
  bytesPerSec: { id: 'bytesPerSec', label: 'throughput', unit: 'bytes/s', direction: 'higher' },
  iops: { id: 'iops', label: 'IOPS', unit: 'IOPS', direction: 'higher' },
  seeks: { id: 'seeks', label: 'seeks', unit: 'seeks/s', direction: 'higher' },
  'latency.p50': { id: 'latency.p50', label: 'latency p50', unit: 'ns', direction: 'lower' },
  'latency.p99': { id: 'latency.p99', label: 'latency p99', unit: 'ns', direction: 'lower' },
  'latency.mean': { id: 'latency.mean', label: 'latency mean', unit: 'ns', direction: 'lower' },
  'latency.max': { id: 'latency.max', label: 'latency max', unit: 'ns', direction: 'lower' },
  /** Wall time of one phase of a workload (unpack, sync, delete …): lower is better. */
  phaseSeconds: { id: 'phaseSeconds', label: 'seconds', unit: 's', direction: 'lower' },
  /** What fstrim reported trimming (discard-cost): how much a periodic fstrim had to do. */
  trimmedBytes: { id: 'trimmedBytes', label: 'trimmed', unit: 'bytes', direction: 'none' },
  /** Discard requests a block device completed during a workload (discard-cost): proof they were sent. */
  discardRequests: { id: 'discardRequests', label: 'discard requests', unit: 'count', direction: 'none' },
  /** What one CPU core encrypts or decrypts with one cipher, in memory: the CPU's ceiling. */
  cipherBytesPerSec: { id: 'cipherBytesPerSec', label: 'cipher throughput', unit: 'bytes/s', direction: 'higher' },
  /** A forecast of a rate (e.g. a disk's throughput under dm-crypt), always estimated. */
  forecastBytesPerSec: { id: 'forecastBytesPerSec', label: 'forecast throughput', unit: 'bytes/s', direction: 'higher' },
  // The working-set scan (analysis/working-set.ts): sizes of the user's data, no better direction.
  storedBytes: { id: 'storedBytes', label: 'bytes stored', unit: 'bytes', direction: 'none' },
  fileCount: { id: 'fileCount', label: 'files', unit: 'count', direction: 'none' },
  touchedBytes: { id: 'touchedBytes', label: 'bytes read or written within', unit: 'bytes', direction: 'none' },
  writtenBytes: { id: 'writtenBytes', label: 'bytes written within', unit: 'bytes', direction: 'none' },
  folderBytes: { id: 'folderBytes', label: 'bytes in folder', unit: 'bytes', direction: 'none' },
  folderRecentBytes: { id: 'folderRecentBytes', label: 'bytes in folder touched within 90 d', unit: 'bytes', direction: 'none' },
  // The access recorder (analysis/access-trace.ts): a trace's totals and its LRU cache curve.
  accessedBytes: { id: 'accessedBytes', label: 'bytes read or written', unit: 'bytes', direction: 'none' },
  distinctBytes: { id: 'distinctBytes', label: 'distinct bytes read or written', unit: 'bytes', direction: 'none' },
  touchCount: { id: 'touchCount', label: 'file reads and writes', unit: 'count', direction: 'none' },
  unsizedTouches: { id: 'unsizedTouches', label: 'touches without a size', unit: 'count', direction: 'none' },
  recordedSeconds: { id: 'recordedSeconds', label: 'seconds recorded', unit: 's', direction: 'none' },
  cacheServedBytes: {
    id: 'cacheServedBytes',
    label: 'bytes an LRU cache of this size would have served',
    unit: 'bytes',
    direction: 'none',
  },
  cacheServedTouches: {
    id: 'cacheServedTouches',
    label: 'file touches an LRU cache of this size would have served',
    unit: 'count',
    direction: 'none',
  },
  // The sustained write (analysis/sustained-write.ts): where the fast cache ran out, the speeds
  // either side, and how much of the cache an idle rest gave back.
  cacheBytes: { id: 'cacheBytes', label: 'written before the speed fell', unit: 'bytes', direction: 'higher' },
  sustainedBytesPerSec: { id: 'sustainedBytesPerSec', label: 'write speed', unit: 'bytes/s', direction: 'higher' },
  recoveredBytes: { id: 'recoveredBytes', label: 'written fast again after the rest', unit: 'bytes', direction: 'higher' },
  // Steady state (analysis/steady-state.ts): the steady window's mean, the first round, the rounds it took.
  steadyBytesPerSec: { id: 'steadyBytesPerSec', label: 'steady-state speed (SNIA)', unit: 'bytes/s', direction: 'higher' },
  freshBytesPerSec: { id: 'freshBytesPerSec', label: 'fresh speed (first round)', unit: 'bytes/s', direction: 'higher' },
  steadyRounds: { id: 'steadyRounds', label: 'rounds to steady state', unit: 'count', direction: 'lower' },
  // The surface of a disk (analysis/surface.ts): the read speed at each offset, the access time,
  // the slowest zone's speed; the device's span, which the offsets are of.
  surfaceBytesPerSec: { id: 'surfaceBytesPerSec', label: 'read speed at offset', unit: 'bytes/s', direction: 'higher', curvePoint: true },
  slowestZoneBytesPerSec: { id: 'slowestZoneBytesPerSec', label: 'read speed of the slowest zone', unit: 'bytes/s', direction: 'higher' },
  accessTimeNs: { id: 'accessTimeNs', label: 'access time (random 4 KiB read)', unit: 'ns', direction: 'lower' },
  surfaceDeviceBytes: { id: 'surfaceDeviceBytes', label: 'bytes of the device', unit: 'bytes', direction: 'none', curvePoint: true },
} as const satisfies Record<string, MetricDef>;

export type MetricId = keyof typeof METRICS;

export function metricById(id: string): MetricDef | undefined {
  return Object.hasOwn(METRICS, id) ? METRICS[id as MetricId] : undefined;
}

/** The names the same test has in other tools' results, for importers and for people. */
export interface ForeignNames {
  /** CrystalDiskMark's grid cell (and KDiskMark's), e.g. "SEQ1M Q8T1". */
  grid?: string;
  /** bonnie++'s CSV field, e.g. "get_block" (Sequential Input, Block). */
  bonnie?: string;
  /** KDiskMark's text report line, e.g. "Sequential 1 MiB (Q= 8, T= 1)" under [Read]. */
  kdiskmark?: string;
  /** CrystalDiskMark's text report line, e.g. "SEQ 1MiB (Q= 8, T= 1)" under [Read]. */
  crystaldiskmark?: string;
}

export interface TestDef {
  id: string;
  /** The measurement kind that runs it (bench/kinds): 'rate' for the I/O tests. */
  kind: string;
  /** Short, for tables: "SEQ1M Q8T1 read". */
  label: string;
  /** In words, for comparisons and charts: "sequential read 1M Q8T1". */
  title: string;
  /** The worker job's parameters (rate tests); null for kinds without I/O parameters. */
  params: TestParams | null;
  /** Whether it writes to the target (refused on block devices). */
  writes: boolean;
  /** Which metric a comparison judges it by first. */
  primary: MetricId;
  names: ForeignNames;
}

const MiB = 1024 * 1024;

/** "sequential read 1M Q8T1", "random 70 % read mix 4K Q8T1", "random seeks": from the parameters alone. */
export function titleForParams(p: TestParams): string {
  if (p.rw === 'seeks') return patternOf('seeks').words(p);
  const span = p.spanMiB === undefined ? '' : ` over the first ${p.spanMiB % 1024 === 0 ? `${p.spanMiB / 1024} GiB` : `${p.spanMiB} MiB`}`;
  // "1M", "4K" as CrystalDiskMark says them; a size under 1 KiB keeps its B ("512B"): a bare
  // "512" beside "1K" in a sweep read as 512 of something else.
  const size = blockSizeLabel(p.blockSize).toUpperCase();
  return `${patternOf(p.rw).words(p)} ${/^\d+$/.test(size) ? `${size}B` : size} Q${p.queueDepth}T${p.threads}${span}`;
}

function rateTest(params: TestParams, label: string, names: ForeignNames, primary: MetricId): TestDef {
  return {
    id: paramsId(params),
    kind: 'rate',
    label,
    title: titleForParams(params),
    params,
    writes: patternOf(params.rw).writes,
    primary,
    names,
  };
}

/**
 * The workloads (bench/kinds/workload.ts): timed file-system work a person feels, each phase in
 * seconds (lower is better). The tree is the shape of a real release (assets/workloads/).
 */
function workloadTest(id: string, label: string, title: string): TestDef {
  return { id, kind: 'workload', label, title, params: null, writes: true, primary: 'phaseSeconds', names: {} };
}

const WORKLOAD_TESTS: readonly TestDef[] = [
  workloadTest('tree', 'Source tree (Linux 6.1)', 'source tree of Linux 6.1.192: write + sync, delete + sync'),
  workloadTest(
    'tree-3.9.1',
    'Source tree (Linux 3.9.1 size)',
    "source tree scaled to the seed's Linux 3.9.1 (45,168 files, 592 MB): write + sync, delete + sync",
  ),
  workloadTest('bigfile', 'Big file (3 GB)', 'one big file (3 GB, or what fits): write + sync, delete + sync'),
  workloadTest('app-start', 'Programs starting (4 at once)', '4 programs starting at once from a cold cache'),
  workloadTest('tarball', 'Your tarball', 'a tarball you give (--tarball), extracted by tar: extract + sync, delete + sync'),
];

const q = (n: number, t = 1) => `Q=${String(n).padStart(3)}, T=${String(t).padStart(2)}`;

/** In the order the grid shows them (CrystalDiskMark's layout), then seeks and the mix. */
export const TESTS: readonly TestDef[] = [
  rateTest(
    { rw: 'read', blockSize: MiB, queueDepth: 8, threads: 1 },
    'SEQ1M Q8T1 read',
    { grid: 'SEQ1M Q8T1', crystaldiskmark: `SEQ 1MiB (${q(8)})`, kdiskmark: `Sequential 1 MiB (${q(8)})` },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'write', blockSize: MiB, queueDepth: 8, threads: 1 },
    'SEQ1M Q8T1 write',
    { grid: 'SEQ1M Q8T1', crystaldiskmark: `SEQ 1MiB (${q(8)})`, kdiskmark: `Sequential 1 MiB (${q(8)})` },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'read', blockSize: MiB, queueDepth: 1, threads: 1 },
    'SEQ1M Q1T1 read',
    { grid: 'SEQ1M Q1T1', crystaldiskmark: `SEQ 1MiB (${q(1)})`, kdiskmark: `Sequential 1 MiB (${q(1)})`, bonnie: 'get_block' },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'write', blockSize: MiB, queueDepth: 1, threads: 1 },
    'SEQ1M Q1T1 write',
    { grid: 'SEQ1M Q1T1', crystaldiskmark: `SEQ 1MiB (${q(1)})`, kdiskmark: `Sequential 1 MiB (${q(1)})`, bonnie: 'put_block' },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 1 },
    'RND4K Q32T1 read',
    { grid: 'RND4K Q32T1', crystaldiskmark: `RND 4KiB (${q(32)})`, kdiskmark: `Random 4 KiB (${q(32)})` },
    'iops',
  ),
  rateTest(
    { rw: 'randwrite', blockSize: 4096, queueDepth: 32, threads: 1 },
    'RND4K Q32T1 write',
    { grid: 'RND4K Q32T1', crystaldiskmark: `RND 4KiB (${q(32)})`, kdiskmark: `Random 4 KiB (${q(32)})` },
    'iops',
  ),
  rateTest(
    { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1 },
    'RND4K Q1T1 read',
    { grid: 'RND4K Q1T1', crystaldiskmark: `RND 4KiB (${q(1)})`, kdiskmark: `Random 4 KiB (${q(1)})` },
    'iops',
  ),
  rateTest(
    { rw: 'randwrite', blockSize: 4096, queueDepth: 1, threads: 1 },
    'RND4K Q1T1 write',
    { grid: 'RND4K Q1T1', crystaldiskmark: `RND 4KiB (${q(1)})`, kdiskmark: `Random 4 KiB (${q(1)})` },
    'iops',
  ),
  // CrystalDiskMark 8's and KDiskMark's NVMe SSD set adds these to SEQ1M Q8T1 and RND4K Q1T1
  // (preset `nvme`); RND4K Q32T16 is 16 threads of their own, each with 32 I/Os in flight.
  rateTest(
    { rw: 'read', blockSize: 128 * 1024, queueDepth: 32, threads: 1 },
    'SEQ128K Q32T1 read',
    { crystaldiskmark: `SEQ 128KiB (${q(32)})`, kdiskmark: `Sequential 128 KiB (${q(32)})` },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'write', blockSize: 128 * 1024, queueDepth: 32, threads: 1 },
    'SEQ128K Q32T1 write',
    { crystaldiskmark: `SEQ 128KiB (${q(32)})`, kdiskmark: `Sequential 128 KiB (${q(32)})` },
    'bytesPerSec',
  ),
  rateTest(
    { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 16 },
    'RND4K Q32T16 read',
    { crystaldiskmark: `RND 4KiB (${q(32, 16)})`, kdiskmark: `Random 4 KiB (${q(32, 16)})` },
    'iops',
  ),
  rateTest(
    { rw: 'randwrite', blockSize: 4096, queueDepth: 32, threads: 16 },
    'RND4K Q32T16 write',
    { crystaldiskmark: `RND 4KiB (${q(32, 16)})`, kdiskmark: `Random 4 KiB (${q(32, 16)})` },
    'iops',
  ),
  // bonnie++'s Random Seeks: 3 concurrent seekers, 8 KiB blocks, every 10th rewritten.
  rateTest(
    { rw: 'seeks', blockSize: 8192, queueDepth: 1, threads: 3 },
    'Random seeks (bonnie++ style, 3 seekers)',
    { bonnie: 'seeks' },
    'seeks',
  ),
  rateTest(
    { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 70 },
    'MIX 70/30 RND4K Q8T1',
    { crystaldiskmark: `RND 4KiB (${q(8)}) [Mix Read 70%/Write 30%]` },
    'iops',
  ),
  ...WORKLOAD_TESTS,
  {
    id: 'working-set',
    kind: 'working-set',
    label: 'Working set',
    title: 'working set: bytes read or written within 1, 7, 30, 90 and 365 days',
    params: null,
    writes: false,
    primary: 'touchedBytes',
    names: {},
  },
  {
    id: 'access-curve',
    kind: 'access-recorder',
    label: 'Cache curve',
    title: 'cache curve: the share of bytes an LRU cache of each size would serve, from recorded file accesses',
    params: null,
    writes: false,
    primary: 'distinctBytes',
    names: {},
  },
  {
    // TechPowerUp's and AnandTech's fill: the speed a buyer lives with once the SLC cache is full.
    // Its figure is the speed past the cache; the cache size and the recovery are its figures.
    id: 'sustained-write',
    kind: 'sustained-write',
    label: 'Sustained write (past the cache)',
    title: 'sustained sequential write past the fast cache',
    params: null,
    writes: true,
    primary: 'bytesPerSec',
    names: {},
  },
  {
    // GNOME Disks' and HD Tune's curve: an HDD's read speed from its outer to its inner tracks.
    id: 'surface',
    kind: 'surface',
    label: 'Surface (read speed across the disk)',
    title: 'read speed across the whole device, outer to inner tracks',
    params: null,
    writes: false,
    primary: 'slowestZoneBytesPerSec',
    names: {},
  },
];

/** Every test id of the catalog, in catalog order. */
export const TEST_IDS: readonly string[] = TESTS.map((t) => t.id);

/** The CrystalDiskMark grid (preset `standard`), in the order the grid shows it. */
export const GRID_TEST_IDS: readonly string[] = TESTS.filter((t) => t.names.grid).map((t) => t.id);

const BY_ID = new Map(TESTS.map((t) => [t.id, t]));

export function testById(id: string): TestDef | undefined {
  return BY_ID.get(id);
}

export function isCatalogTest(id: string): boolean {
  return BY_ID.has(id);
}

/**
 * A test a run may ask for: a catalog test, or a rate test the catalog never listed named by its
 * parameters ("seq128k-q32t1-read", test-params.ts), which parses back to them.
 */
export function isRunnableTest(id: string): boolean {
  return BY_ID.has(id) || paramsFromId(id) !== null;
}

/** The measurement kind that runs a test: the catalog's, else 'rate' for an id of the parameter scheme. */
export function kindOfTest(id: string): string | undefined {
  return BY_ID.get(id)?.kind ?? (paramsFromId(id) ? 'rate' : undefined);
}

/** A rate test's parameters: the catalog's, else those its id names; null for other kinds. */
export function rateTestParams(id: string): TestParams | null {
  return BY_ID.get(id)?.params ?? paramsFromId(id);
}

/** The tests of one kind, in catalog order. */
export function testsOfKind(kind: string): TestDef[] {
  return TESTS.filter((t) => t.kind === kind);
}

/**
 * How a result of this test is titled: the catalog's title, else one built from the result's
 * parameters (an import's "rnd4k-q32t16-read"), else the name as the source gave it.
 */
export function testTitle(id: string, params?: TestParams | null): string {
  const p = params ?? paramsFromId(id);
  return BY_ID.get(id)?.title ?? (p ? titleForParams(p) : id);
}

/** Short label for tables: the catalog's, else the title. */
export function testLabel(id: string, params?: TestParams | null): string {
  return BY_ID.get(id)?.label ?? testTitle(id, params);
}

function sameParams(a: TestParams, b: TestParams): boolean {
  return (
    a.rw === b.rw &&
    a.blockSize === b.blockSize &&
    a.queueDepth === b.queueDepth &&
    a.threads === b.threads &&
    (a.rw !== 'randrw' || (a.readPercent ?? 50) === (b.readPercent ?? 50)) &&
    a.spanMiB === b.spanMiB
  );
}

/**
 * The test id for a set of parameters: the catalog test with exactly these parameters, so
 * imports from fio, KDiskMark and CrystalDiskMark line up with measured runs; otherwise a name
 * in the same scheme ("rnd4k-q32t16-read") that still lines up across tools.
 */
export function testIdFor(p: TestParams): string {
  const known = TESTS.find((t) => t.params && sameParams(t.params, p));
  return known?.id ?? paramsId(p);
}

/** The catalog test another tool's name maps to, e.g. ('bonnie', 'get_block') → seq1m-q1t1-read. */
export function testByForeignName(tool: keyof ForeignNames, name: string): TestDef | undefined {
  return TESTS.find((t) => t.names[tool] === name);
}

/**
 * The catalog's read test of the same shape as a write test (seq1m-q8t1-write → seq1m-q8t1-read),
 * or null (a read, a mix, a workload, or a shape the catalog has no read of).
 */
export function readCounterpart(id: string): string | null {
  const params = BY_ID.get(id)?.params;
  const read = params?.rw === 'write' ? 'read' : params?.rw === 'randwrite' ? 'randread' : null;
  if (!params || !read) return null;
  const counterpart = testIdFor({ ...params, rw: read });
  return BY_ID.has(counterpart) ? counterpart : null;
}

/** Whether a test (catalog or not) writes: from the catalog, else from its parameters. */
export function testWrites(id: string, params?: TestParams | null): boolean {
  const known = BY_ID.get(id);
  if (known) return known.writes;
  const p = params ?? paramsFromId(id);
  return p ? patternOf(p.rw).writes : false;
}
