// Every test file of the project with what it needs to run in full, as fio's t/run-fio-tests.py
// gives each test its requirements. `npm test` runs them all; `npm run test:fast` leaves out the
// labs: a file that needs any of LAB_NEEDS. A test file missing here fails test-manifest.test.ts,
// so a new lab test cannot slip into the fast loop unclassified.
// A file needing root, a tool or a device that is absent still skips what it cannot do, with the
// reason; the manifest only decides which loop runs it.

/** What a test file uses beyond Node and the worker it builds. */
export const NEEDS = {
  root: 'runs parts as root (another user, a loop device, a mount); skips them otherwise',
  loop: 'attaches a loop device over a small temporary file and detaches it within the test',
  mount: 'mounts a small tmpfs or a read-only bind mount for a moment',
  ext4: 'makes an ext4 filesystem on a loop device and mounts it (real storage stacks: TRIM, discard, inspect)',
  blkio: 'the cgroup v1 blkio throttle: the device lab, timings judged against a cap',
  zram: 'reads /dev/zram0, shared by every suite on the machine',
  qemu: 'boots QEMU guests (minutes each)',
  polkit: 'starts a system bus and polkitd (one per machine, under a machine lock)',
  chromium: "Debian's Chromium (Playwright, or printing a PDF)",
  cryptsetup: 'cryptsetup and device-mapper',
  fstrim: 'fstrim',
  strace: 'strace, recording every open a process makes',
  clang: 'clang and libFuzzer (the fuzz build); skips without',
  fio: 'fio, the reference engine',
  bonnie: 'bonnie++, the reference engine',
  electron: 'the Electron binary; skips without',
  netns: 'makes network namespaces and veth pairs (ip netns) and removes them within the test',
  disk: 'measures the disk under the temp folder through the orchestrator, which takes the machine-wide lock on that disk: it waits while any other DiskDelta process on the machine measures it',
} as const;
export type Need = keyof typeof NEEDS;

/**
 * What makes a file a lab test, left out of the fast loop: a VM, a machine-wide daemon, a
 * browser, a throttled or shared device (the disk under the temp folder, which other DiskDelta processes on
 * the machine lock while they measure it: run-tests --fast fails a file seen holding that lock), a
 * filesystem made on a loop device. A loop device alone does not:
 * attached over a temporary file for milliseconds, it is how the worker's and the helper's own
 * tests see a block device.
 */
export const LAB_NEEDS: readonly Need[] = ['blkio', 'qemu', 'polkit', 'chromium', 'ext4', 'zram', 'disk'];

/** Test files by path; the id of a test file is its path without `.test.ts`. */
export const TEST_FILES: Readonly<Record<string, readonly Need[]>> = {
  'e2e/cryptsetup-rounds.test.ts': [],
  'e2e/device-lab.test.ts': ['root', 'loop', 'ext4', 'blkio', 'bonnie'],
  'e2e/fleet-lab.test.ts': ['root', 'loop', 'ext4', 'blkio', 'fio', 'netns'],
  'e2e/dm-crypt-lab.test.ts': ['root', 'qemu', 'polkit', 'cryptsetup', 'loop', 'ext4', 'fstrim'],
  'e2e/forecast-rounds.test.ts': [],
  'e2e/sustained-write-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/sustained-write-truth.test.ts': [],
  'e2e/judge-against-cap.test.ts': [],
  'e2e/judge-rounds.test.ts': [],
  'e2e/latency-mean-lab.test.ts': ['root', 'loop', 'blkio', 'fio'],
  'e2e/lab-node-death.test.ts': [],
  'e2e/machine-lock.test.ts': [],
  'e2e/polkit-lab.test.ts': ['root', 'loop', 'blkio', 'polkit'],
  'e2e/workload-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'e2e/sweep-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'electron/cli/args.test.ts': [],
  'electron/cli/commands/import-export.test.ts': ['disk'],
  'electron/cli/commands/import-memory.test.ts': [],
  'electron/cli/commands/library-commands.test.ts': ['root'],
  'electron/cli/commands/out-fifo.test.ts': [],
  'electron/cli/commands/report.test.ts': ['chromium'],
  'electron/cli/commands/serve-import.test.ts': [],
  'electron/cli/commands/serve.test.ts': [],
  'electron/cli/commands/unwritable-library.test.ts': ['root', 'mount'],
  'electron/cli/main.test.ts': [],
  'electron/cli/npx-signals.test.ts': ['disk'],
  'electron/cli/run-settings-table.test.ts': [],
  'electron/cli/run.test.ts': ['root', 'loop', 'disk'],
  'electron/cli/save-runs.test.ts': [],
  'electron/cli/system-format.test.ts': [],
  'electron/cli/terminal-writes.test.ts': [],
  'electron/cli/warning-lines.test.ts': [],
  'electron/core/analysis/access-trace.test.ts': [],
  'electron/core/analysis/compare.test.ts': [],
  'electron/core/analysis/encryption-story.test.ts': [],
  'electron/core/analysis/encryption.test.ts': [],
  'electron/core/analysis/lru-curve.test.ts': [],
  'electron/core/analysis/working-set.test.ts': [],
  'electron/core/analysis/sustained-write.test.ts': [],
  'electron/core/analysis/write-volume.test.ts': [],
  'electron/core/analysis/significance.test.ts': [],
  'electron/core/analysis/fleet-compare.test.ts': [],
  'electron/core/analysis/summary.test.ts': [],
  'electron/core/analysis/thermal.test.ts': [],
  'electron/core/analysis/units.test.ts': [],
  'electron/core/api/crypto-port.test.ts': [],
  'electron/core/api/dispatch.test.ts': [],
  'electron/core/api/events.test.ts': [],
  'electron/core/api/fleet-procedures.test.ts': [],
  'electron/core/api/library-service.test.ts': [],
  'electron/core/api/procedures.test.ts': ['disk'],
  'electron/core/api/run-manager.test.ts': [],
  'electron/core/bench/aggregate.test.ts': [],
  'electron/core/bench/trim/discard-cost.test.ts': [],
  'electron/core/bench/trim/discard-cost-kept.test.ts': ['root', 'loop', 'ext4', 'fstrim'],
  'electron/core/analysis/discard-table.test.ts': [],
  'electron/cli/commands/discard-cost.test.ts': [],
  'electron/cli/commands/fleet.test.ts': [],
  'electron/cli/commands/assess.test.ts': [],
  'electron/core/bench/trim/discard-remount.test.ts': ['root', 'loop', 'ext4'],
  'electron/core/bench/disk-lock.test.ts': ['root'],
  'electron/core/bench/keep-finished.test.ts': ['disk'],
  'electron/core/bench/scan-lock.test.ts': ['disk'],
  'electron/core/bench/privilege/elevation-session.test.ts': ['root', 'loop', 'disk'],
  'electron/core/bench/privilege/elevation.test.ts': ['root'],
  'electron/core/bench/fleet/fio-job-file.test.ts': ['fio'],
  'electron/core/bench/fleet/fleet-run.test.ts': ['fio'],
  'electron/core/bench/fleet/fleet-symlink.test.ts': ['root', 'fio'],
  'electron/core/bench/kinds/access-recorder.test.ts': [],
  'electron/core/bench/kinds/kinds.test.ts': [],
  'electron/core/bench/kinds/sustained-write.test.ts': ['disk'],
  'electron/core/bench/kinds/workload.test.ts': ['disk'],
  'electron/core/bench/kinds/working-set.test.ts': ['root', 'mount'],
  'electron/core/bench/kinds/working-set-atime.test.ts': ['root', 'loop', 'ext4'],
  'electron/core/bench/ndjson-reader.test.ts': [],
  'electron/core/bench/plan-run.test.ts': [],
  'electron/core/bench/profiles.test.ts': ['disk'],
  'electron/core/bench/read-only.test.ts': ['root', 'loop', 'disk'],
  'electron/core/bench/sweep.test.ts': ['disk'],
  'electron/core/bench/temperature-watch.test.ts': ['disk'],
  'electron/core/bench/progress.test.ts': [],
  'electron/core/bench/result-warnings.test.ts': [],
  'electron/core/bench/statistics.test.ts': [],
  'electron/core/bench/trim/trim-audit.test.ts': ['root', 'loop', 'ext4', 'fstrim'],
  'electron/core/bench/worker-argv.test.ts': [],
  'electron/core/crypto/cipher-ceilings.test.ts': [],
  'electron/core/crypto/encryption-text.test.ts': [],
  'electron/core/crypto/throwaway-held.test.ts': ['root'],
  'electron/core/crypto/throwaway.test.ts': ['root', 'loop', 'cryptsetup'],
  'electron/core/files/make-folder.test.ts': [],
  'electron/core/files/read-lines.test.ts': [],
  'electron/core/files/write-user-file.test.ts': ['root'],
  'electron/core/formats/bonnie-csv.test.ts': [],
  'electron/core/model/cipher-types.test.ts': [],
  'electron/core/bench/presets.test.ts': [],
  'electron/core/model/failure-wording.test.ts': [],
  'electron/cli/failure-out.test.ts': [],
  'electron/cli/figure-tables.test.ts': [],
  'electron/cli/working-set-text.test.ts': [],
  'electron/core/formats/csv-export.test.ts': [],
  'electron/core/formats/disk-mark-text.test.ts': [],
  'electron/core/formats/diskdelta-json.test.ts': [],
  'electron/core/formats/fio-client-json.test.ts': [],
  'electron/core/formats/fio-json-many-jobs.test.ts': [],
  'electron/core/formats/fio-json.test.ts': [],
  'electron/core/formats/foreign-bonnie.test.ts': [],
  'electron/core/formats/foreign-disk-mark.test.ts': [],
  'electron/core/formats/foreign-fio.test.ts': [],
  'electron/core/formats/hostile.test.ts': [],
  'electron/core/formats/reference.test.ts': [],
  'electron/core/layers.test.ts': [],
  'electron/core/model/catalog.test.ts': [],
  'electron/core/model/display.test.ts': [],
  'electron/core/model/failures.test.ts': ['disk'],
  'electron/core/model/figures.test.ts': [],
  'electron/core/model/stderr-tail.test.ts': [],
  'electron/core/model/test-params.test.ts': [],
  'electron/core/model/tree-shape.test.ts': [],
  'electron/core/model/worker-options.test.ts': [],
  'electron/core/report/report-model.test.ts': [],
  'electron/core/store/library.test.ts': [],
  'electron/core/store/unsaved.test.ts': [],
  'electron/core/system/cpu-load.test.ts': [],
  'electron/core/system/degrade.test.ts': [],
  'electron/core/system/discard-audit.test.ts': [],
  'electron/core/system/drive-temperature.test.ts': [],
  'electron/core/system/blkio-throttle.test.ts': [],
  'electron/core/system/fixtures.test.ts': [],
  'electron/core/system/link.test.ts': [],
  'electron/core/system/live.test.ts': ['root', 'loop', 'ext4', 'zram'],
  'electron/core/system/parsers.test.ts': [],
  'electron/core/system/virtual-fs.test.ts': [],
  'electron/main/ipc-bridge.test.ts': [],
  'electron/main/main-bundle.test.ts': ['disk'],
  'electron/preload/create-bridge.test.ts': [],
  'electron/server/server.test.ts': [],
  'native/test/access-recorder.test.ts': ['root', 'loop', 'ext4'],
  'native/test/argv-fuzz.test.ts': [],
  'native/test/build.test.ts': [],
  'native/test/c-format.test.ts': [],
  'native/test/ciphers.test.ts': [],
  'native/test/elevate.test.ts': ['root', 'loop'],
  'native/test/helper.test.ts': ['root', 'loop', 'strace'],
  'native/test/job-parse-fuzz.test.ts': ['clang'],
  'native/test/worker.test.ts': ['root', 'loop', 'mount', 'strace'],
  'native/test/workload-safety.test.ts': ['root'],
  'native/test/workload.test.ts': ['root', 'mount'],
  'native/test/sustained.test.ts': [],
  'renderer/src/api/new-test-events.test.ts': [],
  'renderer/src/api/ws-reconnect.test.ts': [],
  'renderer/src/charts/bar-layout.test.ts': [],
  'renderer/src/charts/cache-curve-chart.test.ts': [],
  'renderer/src/charts/live-chart-view.test.ts': [],
  'renderer/src/charts/chart-registry.test.ts': [],
  'renderer/src/stores/live-follow.test.ts': [],
  'renderer/src/charts/sustained-chart.test.ts': [],
  'renderer/src/charts/encryption-chart.test.ts': [],
  'renderer/src/report/long-labels.test.ts': ['chromium'],
  'renderer/src/report/report-chart.test.ts': [],
  'renderer/src/components/lazy-page.test.ts': [],
  'renderer/src/stores/assessment.test.ts': [],
  'renderer/src/stores/stores.test.ts': [],
  'renderer/src/view/axis-ticks.test.ts': [],
  'renderer/src/view/encryption-view.test.ts': [],
  'renderer/src/view/live-view.test.ts': [],
  'renderer/src/view/trim-cell.test.ts': [],
  'renderer/src/view/view.test.ts': [],
  'scripts/best-engine.test.ts': ['fio'],
  'scripts/build-electron.test.ts': [],
  'scripts/docs.test.ts': [],
  'scripts/electron-launch.test.ts': [],
  'scripts/electron-path.test.ts': ['electron'],
  'scripts/packaging.test.ts': [],
  'scripts/paired-ratio.test.ts': [],
  'scripts/soak-serve.test.ts': ['disk'],
  'scripts/test-manifest.test.ts': [],
  'scripts/test-file-runner.test.ts': [],
};

/** Where test files live; every file these match must be in TEST_FILES. */
export const TEST_PATTERNS = [
  'electron/**/*.test.ts',
  'native/test/**/*.test.ts',
  'scripts/**/*.test.ts',
  'e2e/**/*.test.ts',
  'renderer/**/*.test.ts',
];

export const testId = (file: string): string => file.replace(/\.test\.ts$/, '');

/**
 * Seconds a test file may run before its process group is killed and it fails, named
 * (scripts/test-file-runner.ts). Generous: a limit catches a hang, it is not a speed target; the
 * QEMU guests took up to ~560 s each in CI at load 2.5. DISKDELTA_TEST_FILE_TIMEOUT (seconds) or
 * run-tests' --file-timeout sets one limit for every file.
 */
export function timeLimitSeconds(file: string, override?: number): number {
  if (override !== undefined) return override;
  const needs = TEST_FILES[file] ?? [];
  if (needs.includes('qemu')) return 1800;
  // Waits for the disk while another DiskDelta process measures it (soak-serve allows 15 min).
  if (needs.includes('disk')) return 1500;
  if (needs.some((need) => LAB_NEEDS.includes(need))) return 900;
  return 300;
}

export const isLab = (file: string): boolean => (TEST_FILES[file] ?? []).some((need) => LAB_NEEDS.includes(need));

/** The files found on disk that the manifest does not list, and the listed ones that are gone. */
export function manifestGaps(found: readonly string[]): { unlisted: string[]; missing: string[] } {
  const listed = new Set(Object.keys(TEST_FILES));
  const present = new Set(found);
  return { unlisted: found.filter((f) => !listed.has(f)).sort(), missing: [...listed].filter((f) => !present.has(f)).sort() };
}

export interface Selection {
  /** Leave out the labs (LAB_NEEDS). */
  fast: boolean;
  /** Only these ids (empty: all). */
  only: readonly string[];
  skip: readonly string[];
  /** Leave out the files needing any of these. */
  without: readonly Need[];
}

/** The files to run, in path order; an id the manifest does not know is an error naming it. */
export function selectTests(sel: Selection): string[] {
  const ids = new Map(Object.keys(TEST_FILES).map((f) => [testId(f), f]));
  for (const id of [...sel.only, ...sel.skip]) {
    if (!ids.has(id))
      throw new Error(`no test file has the id '${id}': ids are paths without .test.ts, e.g. native/test/worker (--list shows them)`);
  }
  const unknownNeed = sel.without.find((n) => !(n in NEEDS));
  if (unknownNeed) throw new Error(`--without '${unknownNeed}' is not a requirement: use ${Object.keys(NEEDS).join(', ')}`);
  return Object.entries(TEST_FILES)
    .filter(([file, needs]) => {
      const id = testId(file);
      if (sel.only.length > 0 && !sel.only.includes(id)) return false;
      if (sel.skip.includes(id)) return false;
      if (sel.fast && isLab(file)) return false;
      return !needs.some((n) => sel.without.includes(n));
    })
    .map(([file]) => file)
    .sort();
}
