// The presets that group the catalog's tests (model/catalog.ts). The worker knows nothing of
// these names: each test becomes a `--job` of enums and numbers (see bench/kinds/rate).
import { GRID_TEST_IDS } from '../model/catalog.ts';
import type { PresetName } from './spec.ts';

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
  runs: number;
}

/**
 * Default timing: 0.5 s warm-up + 3 runs of 1.5 s per test keeps `standard` (8 tests) under a
 * minute with a 1 GiB file, while 3 runs still give a median and a spread. CrystalDiskMark's
 * 5 × 5 s is available with --runs 5 --duration 5.
 */
export const PRESETS: Record<PresetName, Preset> = {
  standard: { name: 'standard', description: 'the 8-test grid (CrystalDiskMark layout)', tests: STANDARD, sizeBytes: 1024 * MiB, durationSec: 1.5, warmupSec: 0.5, runs: 3 },
  quick: { name: 'quick', description: 'sequential and 4K QD1 read/write, one short run each', tests: ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write'], sizeBytes: 256 * MiB, durationSec: 1, warmupSec: 0.3, runs: 1 },
  seeks: { name: 'seeks', description: 'bonnie++-style random seeks, time-bounded', tests: ['seeks'], sizeBytes: 1024 * MiB, durationSec: 2, warmupSec: 0.5, runs: 5 },
  full: { name: 'full', description: 'standard + seeks + 70/30 mixed', tests: [...STANDARD, 'seeks', 'mix70-rnd4k-q8t1'], sizeBytes: 1024 * MiB, durationSec: 1.5, warmupSec: 0.5, runs: 3 },
};
