// The presets that group the catalog's tests (model/catalog.ts). The worker knows nothing of
// these names: each test becomes a `--job` of enums and numbers (see bench/kinds/rate).
import { GRID_TEST_IDS } from '../model/catalog.ts';
import type { PresetName } from './spec.ts';
import { TRUST } from './statistics.ts';

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
}

/**
 * Adaptive timing (standard, full): after a 0.25 s warm-up, runs of 0.2 s (longer on a slow
 * device: 64 I/Os each) are added, at least 5, until the median's 95 % interval is within ±2 %
 * and the figure is resolved (TRUST), or 1.2 s of runs have passed. Many short runs estimate
 * the spread far sooner than 3 long ones: a test takes ~1.3–1.6 s, so `standard` fits in 20 s
 * with the 1 GiB fill, and every result records the interval it reached. CrystalDiskMark's
 * 5 × 5 s is available with --runs 5 --duration 5 (an explicit --runs means a fixed count).
 */
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
  if (p.durationSec === 0 || p.tests.includes('seeks')) return null;
  return "no seeks: for the HDD → SSD story's seek figure choose the full preset (or add the seeks test)";
}

export const PRESETS: Record<PresetName, Preset> = {
  standard: {
    name: 'standard',
    description: 'the 8-test grid (CrystalDiskMark layout)',
    tests: STANDARD,
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
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
  },
  full: {
    name: 'full',
    description: 'standard + seeks + 70/30 mixed',
    tests: [...STANDARD, 'seeks', 'mix70-rnd4k-q8t1'],
    sizeBytes: 1024 * MiB,
    ...ADAPTIVE,
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
  },
};
