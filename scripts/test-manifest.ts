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
  'e2e/blkio-two-groups-lab.test.ts': ['root', 'loop', 'blkio'],
  'e2e/cryptsetup-rounds.test.ts': [],
  'e2e/device-lab.test.ts': ['root', 'loop', 'ext4', 'blkio', 'bonnie'],
  'e2e/fleet-lab.test.ts': ['root', 'loop', 'ext4', 'blkio', 'fio', 'netns'],
  'e2e/dm-crypt-lab.test.ts': ['root', 'qemu', 'polkit', 'cryptsetup', 'loop', 'ext4', 'fstrim'],
  'e2e/forecast-rounds.test.ts': [],
  'e2e/sustained-write-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/drive-health-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/sata-health-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/steady-state-lab.test.ts': ['root', 'loop', 'ext4'],
  'e2e/surface-lab.test.ts': ['root', 'qemu'],
  'e2e/surface-blkio-lab.test.ts': ['root', 'loop', 'blkio'],
  'e2e/steady-burst-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/forecast-bursts-lab.test.ts': ['root', 'qemu', 'ext4'],
  'e2e/sustained-write-truth.test.ts': [],
  'e2e/sustained-flat-busy-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'e2e/judge-against-cap.test.ts': [],
  'e2e/judge-rounds.test.ts': [],
  'e2e/latency-mean-lab.test.ts': ['root', 'loop', 'blkio', 'fio'],
  'e2e/lab-node-death.test.ts': [],
  'e2e/machine-lock.test.ts': [],
  'e2e/record-growing-lab.test.ts': ['root', 'loop', 'ext4'],
  'e2e/polkit-lab.test.ts': ['root', 'loop', 'blkio', 'polkit'],
  'e2e/workload-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'e2e/forecast-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'e2e/trim-zram-lab.test.ts': ['root', 'ext4', 'fstrim', 'zram'],
  'e2e/sweep-lab.test.ts': ['root', 'loop', 'ext4', 'blkio'],
  'e2e/verdicts-everywhere.test.ts': [],
  'e2e/candidates-everywhere.test.ts': [],
  'electron/shared/analysis/candidate-judged.test.ts': [],
  'electron/node/api/forecast-service.test.ts': [],
  'electron/cli/args.test.ts': [],
  'electron/cli/blocking-sensor.test.ts': ['root', 'mount', 'disk'],
  'electron/cli/commands/import-export.test.ts': ['disk'],
  'electron/cli/commands/import-memory.test.ts': [],
  'electron/cli/commands/library-commands.test.ts': ['root'],
  'electron/cli/commands/out-fifo.test.ts': [],
  'electron/cli/commands/forecast.test.ts': [],
  'electron/cli/commands/report.test.ts': ['chromium'],
  'electron/cli/commands/serve-import.test.ts': [],
  'electron/cli/commands/serve.test.ts': [],
  'electron/cli/commands/unwritable-library.test.ts': ['root', 'mount'],
  'electron/cli/input-fifo.test.ts': ['disk'],
  'electron/cli/main.test.ts': [],
  'electron/cli/npx-signals.test.ts': ['disk'],
  'electron/cli/run-settings-table.test.ts': [],
  'electron/cli/signals.test.ts': [],
  'electron/cli/run.test.ts': ['root', 'loop', 'disk'],
  'electron/cli/save-runs.test.ts': [],
  'electron/cli/system-format.test.ts': [],
  'electron/cli/terminal-writes.test.ts': [],
  'electron/cli/warning-lines.test.ts': [],
  'electron/shared/analysis/access-trace.test.ts': [],
  'electron/shared/analysis/compare.test.ts': [],
  'electron/shared/analysis/encryption-story.test.ts': [],
  'electron/shared/analysis/encryption.test.ts': [],
  'electron/shared/analysis/lru-curve.test.ts': [],
  'electron/shared/analysis/replay-forecast.test.ts': [],
  'electron/shared/analysis/working-set.test.ts': [],
  'electron/shared/analysis/sustained-write.test.ts': [],
  'electron/shared/analysis/write-volume.test.ts': [],
  'electron/shared/analysis/candidate.test.ts': [],
  'electron/shared/analysis/candidate-forecast.test.ts': [],
  'electron/shared/analysis/significance.test.ts': [],
  'electron/shared/analysis/fleet-compare.test.ts': [],
  'electron/shared/analysis/summary.test.ts': [],
  'electron/shared/analysis/thermal.test.ts': [],
  'electron/shared/analysis/units.test.ts': [],
  'electron/node/api/crypto-port.test.ts': [],
  'electron/node/api/dispatch.test.ts': [],
  'electron/node/api/events.test.ts': [],
  'electron/node/api/fleet-procedures.test.ts': [],
  'electron/node/api/library-service.test.ts': [],
  'electron/node/api/procedures.test.ts': ['disk'],
  'electron/node/api/run-manager.test.ts': [],
  'electron/node/bench/aggregate.test.ts': [],
  'electron/node/bench/trim/discard-cost.test.ts': [],
  'electron/node/bench/trim/discard-cost-kept.test.ts': ['root', 'loop', 'ext4', 'fstrim'],
  'electron/node/bench/trim/discard-bigfile.test.ts': ['root', 'loop', 'ext4', 'fstrim'],
  'electron/shared/analysis/discard-table.test.ts': [],
  'electron/cli/commands/discard-cost.test.ts': [],
  'electron/cli/commands/fleet.test.ts': [],
  'electron/cli/commands/assess.test.ts': [],
  'electron/node/bench/trim/discard-remount.test.ts': ['root', 'loop', 'ext4'],
  'electron/node/bench/disk-lock.test.ts': ['root', 'loop'],
  'electron/node/bench/privilege/elevation-session.test.ts': ['root', 'loop', 'disk'],
  'electron/node/bench/privilege/elevation.test.ts': ['root'],
  'electron/node/bench/privilege/drive-health-read.test.ts': ['root'],
  'electron/node/bench/fleet/fio-job-file.test.ts': ['fio'],
  'electron/node/bench/fleet/fleet-run.test.ts': ['fio'],
  'electron/node/bench/fleet/fleet-symlink.test.ts': ['root', 'fio'],
  'electron/node/bench/kinds/access-recorder.test.ts': [],
  'electron/node/bench/kinds/kinds.test.ts': [],
  'electron/node/bench/kinds/sustained-write.test.ts': ['disk'],
  'electron/node/bench/kinds/workload.test.ts': ['disk'],
  'electron/node/bench/kinds/working-set.test.ts': ['root', 'mount'],
  'electron/node/bench/kinds/working-set-atime.test.ts': ['root', 'loop', 'ext4'],
  'electron/node/bench/ndjson-reader.test.ts': [],
  'electron/node/bench/plan-run.test.ts': [],
  'electron/node/bench/profiles.test.ts': ['disk'],
  'electron/node/bench/read-only.test.ts': ['root', 'loop', 'disk'],
  'electron/node/bench/sweep.test.ts': ['disk'],
  'electron/node/bench/temperature-watch.test.ts': ['disk'],
  'electron/node/bench/progress.test.ts': [],
  'electron/node/bench/result-warnings.test.ts': [],
  'electron/shared/analysis/statistics.test.ts': [],
  'electron/node/bench/trim/trim-audit.test.ts': ['root', 'loop', 'ext4', 'fstrim'],
  'electron/node/bench/worker-argv.test.ts': [],
  'electron/node/crypto/cipher-ceilings.test.ts': [],
  'electron/cli/encryption-text.test.ts': [],
  'electron/node/crypto/throwaway-held.test.ts': ['root'],
  'electron/node/crypto/throwaway.test.ts': ['root', 'loop', 'cryptsetup'],
  'electron/node/files/make-folder.test.ts': [],
  'electron/node/files/read-lines.test.ts': [],
  'electron/node/files/read-bounded.test.ts': [],
  'electron/node/files/write-user-file.test.ts': ['root'],
  'electron/node/formats/bonnie-csv.test.ts': [],
  'electron/shared/model/candidate.test.ts': [],
  'electron/shared/model/cipher-types.test.ts': [],
  'electron/shared/catalog/presets.test.ts': [],
  'electron/cli/measure-now-preset.test.ts': [],
  'electron/shared/model/failure-wording.test.ts': [],
  'electron/node/bench/keep-finished.test.ts': ['disk'],
  'electron/node/bench/scan-lock.test.ts': ['disk'],
  'electron/cli/failure-out.test.ts': [],
  'electron/cli/figure-tables.test.ts': [],
  'electron/cli/working-set-text.test.ts': [],
  'electron/node/formats/csv-export.test.ts': [],
  'electron/node/formats/disk-mark-text.test.ts': [],
  'electron/node/formats/diskdelta-json.test.ts': [],
  'electron/node/formats/fio-client-json.test.ts': [],
  'electron/node/formats/fio-json-many-jobs.test.ts': [],
  'electron/node/formats/fio-json.test.ts': [],
  'electron/node/formats/foreign-bonnie.test.ts': [],
  'electron/node/formats/foreign-disk-mark.test.ts': [],
  'electron/node/formats/foreign-fio.test.ts': [],
  'electron/node/formats/hostile.test.ts': [],
  'electron/node/formats/impossible-figures.test.ts': [],
  'electron/node/formats/importers.test.ts': [],
  'electron/node/formats/reference.test.ts': [],
  'electron/layers.test.ts': [],
  'electron/shared/model/catalog.test.ts': [],
  'electron/shared/model/run-kind.test.ts': [],
  'electron/shared/model/machine.test.ts': [],
  'electron/shared/model/whole-tokens.test.ts': [],
  'electron/shared/model/display.test.ts': [],
  'electron/shared/model/failures.test.ts': ['disk'],
  'electron/shared/model/figures.test.ts': [],
  'electron/shared/model/stderr-tail.test.ts': [],
  'electron/shared/model/test-params.test.ts': [],
  'electron/shared/model/schemas.test.ts': [],
  'electron/shared/model/tree-shape.test.ts': [],
  'electron/shared/model/worker-options.test.ts': [],
  'electron/shared/report/report-model.test.ts': [],
  'electron/node/store/library.test.ts': [],
  'electron/node/store/stored-row.test.ts': [],
  'electron/node/store/assessment-kinds.test.ts': [],
  'electron/node/store/run-list-row.test.ts': [],
  'electron/node/store/unsaved.test.ts': [],
  'electron/node/system/cpu-load.test.ts': [],
  'electron/node/system/degrade.test.ts': [],
  'electron/node/system/discard-audit.test.ts': [],
  'electron/node/system/drive-temperature.test.ts': [],
  'electron/node/system/fill-level.test.ts': ['root', 'loop', 'ext4'],
  'electron/node/system/drive-health.test.ts': [],
  'electron/node/system/smartctl.test.ts': [],
  'electron/shared/analysis/steady-state.test.ts': [],
  'electron/node/system/blkio-throttle.test.ts': [],
  'electron/node/system/fixtures.test.ts': [],
  'electron/node/system/link.test.ts': [],
  'electron/node/system/live.test.ts': ['root', 'loop', 'ext4', 'zram'],
  'electron/node/system/parsers.test.ts': [],
  'electron/node/system/virtual-fs.test.ts': [],
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
  'native/test/nvme-smart.test.ts': ['root', 'loop'],
  'native/test/helper.test.ts': ['root', 'loop', 'strace'],
  'native/test/job-parse-fuzz.test.ts': ['clang'],
  'native/test/worker.test.ts': ['root', 'loop', 'mount', 'strace'],
  'native/test/workload-safety.test.ts': ['root'],
  'native/test/working-set-vanish.test.ts': [],
  'native/test/workload.test.ts': ['root', 'mount'],
  'native/test/sustained.test.ts': [],
  'native/test/surface.test.ts': ['root', 'loop'],
  'electron/cli/commands/surface.test.ts': ['root', 'loop'],
  'renderer/src/api/new-test-events.test.ts': [],
  'renderer/src/api/ws-reconnect.test.ts': [],
  'electron/shared/charts/bar-layout.test.ts': [],
  'renderer/src/charts/cache-curve-chart.test.ts': [],
  'renderer/src/charts/live-chart-view.test.ts': [],
  'renderer/src/charts/chart-registry.test.ts': [],
  'renderer/src/view/forecast-accuracy.test.ts': [],
  'renderer/src/stores/live-follow.test.ts': [],
  'renderer/src/charts/sustained-chart.test.ts': [],
  'renderer/src/charts/surface-chart.test.ts': [],
  'electron/shared/analysis/surface.test.ts': [],
  'electron/node/bench/kinds/surface.test.ts': [],
  'renderer/src/charts/steady-chart.test.ts': [],
  'renderer/src/charts/drive-counters-chart.test.ts': [],
  'renderer/src/charts/encryption-chart.test.ts': [],
  'electron/shared/report/long-labels.test.ts': ['chromium'],
  'electron/shared/report/report-pages.test.ts': ['chromium'],
  'electron/shared/report/report-chart.test.ts': [],
  'electron/shared/report/whole-text.test.ts': [],
  'renderer/src/components/lazy-page.test.ts': [],
  'renderer/src/stores/assessment.test.ts': [],
  'renderer/src/stores/stores.test.ts': [],
  'electron/shared/charts/axis-ticks.test.ts': [],
  'renderer/src/view/encryption-view.test.ts': [],
  'renderer/src/view/live-view.test.ts': [],
  'renderer/src/view/trim-cell.test.ts': [],
  'renderer/src/view/candidate-form.test.ts': [],
  'renderer/src/view/view.test.ts': [],
  'scripts/best-engine.test.ts': ['fio'],
  'scripts/build-electron.test.ts': [],
  'scripts/docs.test.ts': [],
  'scripts/electron-launch.test.ts': [],
  'scripts/electron-path.test.ts': ['electron'],
  'scripts/packaging.test.ts': [],
  'scripts/own-process.test.ts': [],
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
