// The presets that group the catalog's tests (model/catalog.ts). The worker knows nothing of
// these names: each test becomes a `--job` of enums and numbers (see bench/kinds/rate).
import { GRID_TEST_IDS, kindOfTest } from '../model/catalog.ts';
import { paramsId } from '../model/test-params.ts';
import type { Statistic } from '../model/results.ts';
import type { PresetName } from '../model/spec.ts';
import { TRUST } from '../analysis/statistics.ts';

const MiB = 1024 * 1024;

const STANDARD = [...GRID_TEST_IDS];

export interface Preset {
  name: PresetName;
  description: string;
  /** Catalog test ids (model/catalog.ts). */
  tests: string[];
  /** Defaults a spec may override. */
  sizeBytes: number;
  durationSec: number;
  warmupSec: number;
  /** The fewest timed runs (adaptive), or the exact count (precision 0). */
  runs: number;
  /** Adaptive stopping: the median's 95 % interval to reach; 0 for a fixed count of runs. */
  precision: number;
  /** Adaptive stopping: the most timed seconds per test. */
  maxTimeSec: number;
  /** Idle seconds between tests (flash memory empties its cache); absent: the table's 0. */
  pauseSec?: number;
  /** How each test's runs become its figure, recorded on every result. */
  statistic: Statistic;
  /**
   * SNIA steady state (analysis/steady-state.ts): each run is a round, repeated from `runs` until
   * the last 5 are steady or 25 have run; the figure is the steady window's mean.
   */
  steady?: true;
}

/**
 * Adaptive timing (standard, full): after a 0.25 s warm-up, runs of 0.2 s (longer on a slow
 * device: 64 I/Os each) are added, at least 5, until the median's 95 % interval is within ±2 %
 * and the figure is resolved (TRUST), or 1.2 s of runs have passed. Many short runs estimate
 * the spread far sooner than 3 long ones: a test takes ~1.3–1.6 s, so `standard` fits in 20 s
 * with the 1 GiB fill, and every result records the interval it reached. CrystalDiskMark's
 * 5 × 5 s is available with --runs 5 --duration 5 (an explicit --runs means a fixed count).
 */
/**
 * CrystalDiskMark 9's default timing, as its source sets it (DiskMarkDlg.cpp, DiskBench.cpp):
 * TestCount 3 ("default value is 3", 5 before version 9), MeasureTime 5 s, IntervalTime 5 s
 * idle before each test, a preparation pass of the full measure time before the counted runs,
 * and the best run kept (`if (score > *maxScore)`, in every profile, Real World included).
 */
const CDM_TIMING = { durationSec: 5, warmupSec: 5, runs: 3, precision: 0, maxTimeSec: 15, pauseSec: 5, statistic: 'best' } as const;

/** What DiskDelta's adaptive presets do instead of CrystalDiskMark's timing, said in their descriptions. */
const NOT_CDM_TIMING = "DiskDelta's adaptive runs and their median, not CrystalDiskMark's best of 3 × 5 s";

const NVME = [
  'seq1m-q8t1-read',
  'seq1m-q8t1-write',
  'seq128k-q32t1-read',
  'seq128k-q32t1-write',
  'rnd4k-q32t16-read',
  'rnd4k-q32t16-write',
  'rnd4k-q1t1-read',
  'rnd4k-q1t1-write',
];

/** ATTO's transfer sizes: 0.5 KiB to 64 MiB, powers of two (18 sizes). */
export const SWEEP_BLOCK_SIZES: readonly number[] = Array.from({ length: 18 }, (_, i) => 512 * 2 ** i);

/** ATTO's default queue depth; every test id and title says it (Q4T1). */
export const SWEEP_QUEUE_DEPTH = 4;

const SWEEP = SWEEP_BLOCK_SIZES.flatMap((blockSize) =>
  (['read', 'write'] as const).map((rw) => paramsId({ rw, blockSize, queueDepth: SWEEP_QUEUE_DEPTH, threads: 1 })),
);

/** A kind that keeps no test file and no timed windows (the sustained write, the surface): one stream or scan, its own settings. */
const NO_TIMED_WINDOWS = { sizeBytes: 0, durationSec: 0, warmupSec: 0, runs: 1, precision: 0, maxTimeSec: 0, statistic: 'single' } as const;

const ADAPTIVE = { durationSec: 0.2, warmupSec: 0.25, runs: 5, precision: TRUST.precision, maxTimeSec: 1.2 } as const;

/**
 * The preset of a spec that names none: the CLI's `run`, the API, the orchestrator. The app's
 * New run form starts on `quick` instead (a first look in seconds) and says so beside it.
 */
export const DEFAULT_PRESET: PresetName = 'standard';

/**
 * What a rate preset leaves out of the HDD → SSD story, and how to get it: the seek figure
 * (bonnie++'s random seeks, where an HDD's 8 ms against an SSD's 0.1 ms is the difference a
 * person feels) is in `full` and `seeks` only. Null for a preset that has seeks, and for the
 * workloads (seconds per phase, another question).
 */
export function presetStoryGap(name: PresetName): string | null {
  const p = PRESETS[name];
  if (!presetKinds(name).every((k) => k === 'rate') || p.tests.includes('seeks')) return null;
  return "no seeks: for the HDD → SSD story's seek figure choose the full preset (or add the seeks test)";
}

/** The measurement kinds of a preset's tests (model/catalog.ts): which run settings it takes. */
export function presetKinds(name: PresetName): string[] {
  return [...new Set(PRESETS[name].tests.map((t) => kindOfTest(t) ?? 'rate'))];
}

export const PRESETS: Record<PresetName, Preset> = {
  standard: {
    name: 'standard',
    description: `the 8-test grid of CrystalDiskMark's default settings; ${NOT_CDM_TIMING}`,
    tests: STANDARD,
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
    statistic: 'median',
  },
  quick: {
    name: 'quick',
    description: 'sequential and 4K QD1 read/write, one short run each',
    tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write'],
    sizeBytes: 256 * MiB,
    durationSec: 1,
    warmupSec: 0.3,
    runs: 1,
    precision: 0,
    maxTimeSec: 1,
    statistic: 'median',
  },
  seeks: {
    name: 'seeks',
    description: 'bonnie++-style random seeks, time-bounded',
    tests: ['seeks'],
    sizeBytes: 1024 * MiB,
    durationSec: 2,
    warmupSec: 0.5,
    runs: 5,
    precision: 0,
    maxTimeSec: 10,
    statistic: 'median',
  },
  full: {
    name: 'full',
    description: 'standard + seeks + 70/30 mixed',
    tests: [...STANDARD, 'seeks', 'mix70-rnd4k-q8t1'],
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
    statistic: 'median',
  },
  // What a person feels (bench/kinds/workload.ts): seconds per phase, a warm-up pass and 3 timed
  // passes each; the tree at the seed's Linux 3.9.1 size so its Intel 525 figures line up.
  workloads: {
    name: 'workloads',
    description: 'source tree (Linux 3.9.1 size), 3 GB file, 4 programs starting: seconds per phase',
    tests: ['tree-3.9.1', 'bigfile', 'app-start'],
    sizeBytes: 3_000_000_000,
    durationSec: 0,
    warmupSec: 0,
    runs: 3,
    precision: 0,
    maxTimeSec: 0,
    statistic: 'median',
  },
  // ATTO's shape: one chart over block size (report/charts block-size-sweep), not 36 bars. Sizes
  // below the target's logical block are skipped by the worker with a warning (4Kn disks).
  sweep: {
    name: 'sweep',
    description: "ATTO's block-size sweep: sequential read and write at 0.5 KiB … 64 MiB, Q4T1; median",
    tests: SWEEP,
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
    statistic: 'median',
  },
  // CrystalDiskMark 8's profiles (and KDiskMark's NVMe set). Each records its statistic on every
  // result, so that compare says when a median meets a best run or a mean.
  nvme: {
    name: 'nvme',
    description: `CrystalDiskMark's NVMe SSD settings (its "Ver.8" set): SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16 (16 threads), RND4K Q1T1; ${NOT_CDM_TIMING}`,
    tests: NVME,
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
    statistic: 'median',
  },
  peak: {
    name: 'peak',
    description:
      "CrystalDiskMark 9's Peak Performance: SEQ1M Q8T1 and RND4K Q32T1 (its default settings; RND4K Q32T16 under its NVMe SSD settings), best of 3 runs of 5 s after a preparation pass, 5 s idle before each test",
    tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q32t1-read', 'rnd4k-q32t1-write'],
    sizeBytes: 1024 * MiB,
    ...CDM_TIMING,
  },
  'real-world': {
    name: 'real-world',
    description:
      "CrystalDiskMark 9's Real World Performance: SEQ1M Q1T1 and RND4K Q1T1, best of 3 runs of 5 s after a preparation pass (CrystalDiskMark keeps the best run here too), 5 s idle before each test",
    tests: ['seq1m-q1t1-read', 'seq1m-q1t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write'],
    sizeBytes: 1024 * MiB,
    ...CDM_TIMING,
  },
  flash: {
    name: 'flash',
    description:
      "CrystalDiskMark 9's Flash Memory: its default four tests (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1) and test size (1 GiB, or the size you set), best of 3 runs of 1 s after a 1 s preparation pass, 30 s idle before each test",
    tests: STANDARD,
    sizeBytes: 1024 * MiB,
    ...CDM_TIMING,
    durationSec: 1,
    warmupSec: 1,
    maxTimeSec: 3,
    pauseSec: 30,
  },
  // Past the drive's fast (SLC) cache (kinds/sustained-write.ts): one stream, its span, block,
  // depth, rest and recovery are the run settings' (16 GiB of 1 MiB writes at QD1 by default);
  // the fields above do not apply to it (durationSec 0: no timed windows).
  sustained: {
    name: 'sustained',
    description: "a sustained write past the drive's fast cache: where the speed falls, before and after, and what comes back after a rest",
    tests: ['sustained-write'],
    ...NO_TIMED_WINDOWS,
  },
  // SNIA PTS steady state without wiping the drive: on the test file (its size the user's), the
  // worker's fill writes it whole once and the warm-up runs the test's own pattern untimed (the
  // preconditioning), then rounds of 5 s until the last 5 are steady, at most 25.
  steady: {
    name: 'steady',
    description:
      'steady state the SNIA way: RND4K Q32T1 write on the test file, precondition (the file written whole, 5 s of the pattern), then rounds of 5 s until 5 in a row are steady (within 20 % of their mean, fitted line within 10 %), at most 25; the steady figure beside the fresh one (the first round)',
    tests: ['rnd4k-q32t1-write'],
    sizeBytes: 1024 * MiB,
    durationSec: 5,
    warmupSec: 5,
    runs: 5,
    precision: 0,
    // Not sent (steady state stops on its own rule): the 25 rounds' time, for the settings' range.
    maxTimeSec: 125,
    statistic: 'mean',
    steady: true,
  },
  // An HDD's read speed across the whole device (kinds/surface.ts), as `diskdelta surface DEVICE`
  // measures it: read-only, so the target must be a block device; its offsets, bytes per offset
  // and access reads are the run settings' (the fields above do not apply: no test file).
  surface: {
    name: 'surface',
    description:
      'the read speed across a whole block device such as /dev/sdb (never a folder), outer to inner tracks (as GNOME Disks and HD Tune draw it), its slowest zone and access time',
    tests: ['surface'],
    ...NO_TIMED_WINDOWS,
  },
};

/**
 * The rate presets the assessment's "Measure now" offers. It sends the preset's name and nothing
 * else (appMeasureSpec), so the run is exactly the CLI's `--preset NAME`: it once added `runs: 1`,
 * which turned `full` into one 0.2 s window per test, every figure under-resolved (#39).
 */
export const MEASURE_NOW_PRESETS = ['quick', 'standard', 'full'] as const satisfies readonly PresetName[];
export type MeasureNowPreset = (typeof MEASURE_NOW_PRESETS)[number];

/** The spec "Measure now" starts: the preset's own timing, size and tests, as `diskdelta run --preset NAME`. */
export function appMeasureSpec(
  target: string,
  preset: MeasureNowPreset,
  label: string,
): { target: string; preset: PresetName; label: string } {
  return { target, preset, label };
}

/** "~1 min": a duration said roughly, as a person plans around it. */
function roughly(seconds: number): string {
  if (seconds < 90) return `~${Math.max(5, Math.round(seconds / 5) * 5)} s`;
  return `~${Math.round(seconds / 60)} min`;
}

/**
 * A rate preset's timing, said before it starts: runs × seconds per test, the tests, and roughly
 * how long (the test file's fill comes on top and depends on the disk). From the table itself, so
 * the card and the CLI's preset can never tell two timings. Null for presets without timed windows.
 */
export function presetTiming(name: PresetName): string | null {
  const p = PRESETS[name];
  if (p.durationSec === 0) return null;
  const tests = p.tests.length;
  const perTestMax = p.warmupSec + (p.precision > 0 ? p.maxTimeSec : p.runs * p.durationSec) + (p.pauseSec ?? 0);
  const perTestMin = p.warmupSec + p.runs * p.durationSec + (p.pauseSec ?? 0);
  const runs =
    p.precision > 0
      ? `at least ${p.runs} runs × ${p.durationSec} s per test, more until the median is within ±${(p.precision * 100).toFixed(0)} % (at most ${p.maxTimeSec} s)`
      : `${p.runs} ${p.runs === 1 ? 'run' : 'runs'} × ${p.durationSec} s per test`;
  const lo = roughly(tests * perTestMin);
  const hi = roughly(tests * perTestMax);
  const time = lo === hi ? lo : `${lo}–${hi.replace(/^~/, '')}`;
  return `${runs}, after a ${p.warmupSec} s warm-up${p.pauseSec ? ` and ${p.pauseSec} s idle` : ''}; ${tests} ${tests === 1 ? 'test' : 'tests'}; ${time} plus writing the ${formatSizeMiB(p.sizeBytes)} test file`;
}

function formatSizeMiB(bytes: number): string {
  return bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}
