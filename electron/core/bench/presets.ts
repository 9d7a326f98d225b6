// The tests DiskDelta knows and the presets that group them. The worker knows nothing of
// these names: each test becomes a `--job` of enums and numbers (see worker-argv.ts).
import type { TestId, TestParams } from '../model/results.ts';
import type { PresetName } from './spec.ts';
import { TRUST } from './statistics.ts';

const MiB = 1024 * 1024;

export interface TestDefinition {
  id: TestId;
  title: string; // as a person reads it in a table
  params: TestParams;
}

export const TEST_DEFINITIONS: Record<TestId, TestDefinition> = {
  'seq1m-q8t1-read': { id: 'seq1m-q8t1-read', title: 'SEQ1M Q8T1 read', params: { rw: 'read', blockSize: MiB, queueDepth: 8, threads: 1 } },
  'seq1m-q8t1-write': { id: 'seq1m-q8t1-write', title: 'SEQ1M Q8T1 write', params: { rw: 'write', blockSize: MiB, queueDepth: 8, threads: 1 } },
  'seq1m-q1t1-read': { id: 'seq1m-q1t1-read', title: 'SEQ1M Q1T1 read', params: { rw: 'read', blockSize: MiB, queueDepth: 1, threads: 1 } },
  'seq1m-q1t1-write': { id: 'seq1m-q1t1-write', title: 'SEQ1M Q1T1 write', params: { rw: 'write', blockSize: MiB, queueDepth: 1, threads: 1 } },
  'rnd4k-q32t1-read': { id: 'rnd4k-q32t1-read', title: 'RND4K Q32T1 read', params: { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 1 } },
  'rnd4k-q32t1-write': { id: 'rnd4k-q32t1-write', title: 'RND4K Q32T1 write', params: { rw: 'randwrite', blockSize: 4096, queueDepth: 32, threads: 1 } },
  'rnd4k-q1t1-read': { id: 'rnd4k-q1t1-read', title: 'RND4K Q1T1 read', params: { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1 } },
  'rnd4k-q1t1-write': { id: 'rnd4k-q1t1-write', title: 'RND4K Q1T1 write', params: { rw: 'randwrite', blockSize: 4096, queueDepth: 1, threads: 1 } },
  // bonnie++'s Random Seeks: 3 concurrent seekers, 8 KiB blocks, every 10th rewritten.
  seeks: { id: 'seeks', title: 'Random seeks (bonnie++ style, 3 seekers)', params: { rw: 'seeks', blockSize: 8192, queueDepth: 1, threads: 3 } },
  'mix70-rnd4k-q8t1': {
    id: 'mix70-rnd4k-q8t1',
    title: 'MIX 70/30 RND4K Q8T1',
    params: { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 70 },
  },
};

const STANDARD: TestId[] = [
  'seq1m-q8t1-read', 'seq1m-q8t1-write', 'seq1m-q1t1-read', 'seq1m-q1t1-write',
  'rnd4k-q32t1-read', 'rnd4k-q32t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write',
];

export interface Preset {
  name: PresetName;
  description: string;
  tests: TestId[];
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

export const PRESETS: Record<PresetName, Preset> = {
  standard: { name: 'standard', description: 'the 8-test grid (CrystalDiskMark layout)', tests: STANDARD, sizeBytes: 1024 * MiB, ...ADAPTIVE },
  quick: { name: 'quick', description: 'sequential and 4K QD1 read/write, one short run each', tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write'], sizeBytes: 256 * MiB, durationSec: 1, warmupSec: 0.3, runs: 1, precision: 0, maxTimeSec: 1 },
  seeks: { name: 'seeks', description: 'bonnie++-style random seeks, time-bounded', tests: ['seeks'], sizeBytes: 1024 * MiB, durationSec: 2, warmupSec: 0.5, runs: 5, precision: 0, maxTimeSec: 10 },
  full: { name: 'full', description: 'standard + seeks + 70/30 mixed', tests: [...STANDARD, 'seeks', 'mix70-rnd4k-q8t1'], sizeBytes: 1024 * MiB, ...ADAPTIVE },
};

export function isWriteTest(id: TestId): boolean {
  const rw = TEST_DEFINITIONS[id].params.rw;
  return rw === 'write' || rw === 'randwrite' || rw === 'randrw';
}
