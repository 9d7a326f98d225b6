// `diskdelta run`: measure the disk under a folder (or a block device, read tests only).
import { counted, terminalField } from '../../shared/model/display.ts';
import { resolve } from 'node:path';
import { latencyFigureText, rateFigureText } from '../../shared/analysis/figure-text.ts';
import { sustainedSettingsText } from '../../shared/analysis/sustained-write.ts';
import { needsElevation } from '../../node/bench/privilege/elevation.ts';
import { measuredDeviceText } from '../../shared/model/run-text.ts';
import { temperatureText } from '../../shared/model/temperature-text.ts';
import { fillText } from '../../shared/analysis/fill-level.ts';
import { driveWrittenText } from '../../shared/analysis/drive-health.ts';
import { CUT_SHORT, runBenchmark } from '../../node/bench/orchestrator.ts';
import { DEFAULT_PRESET, PRESETS, presetStoryGap } from '../../shared/catalog/presets.ts';
import { isRunnableTest, testLabel, TESTS } from '../../shared/model/catalog.ts';
import { exitCodeOf, exitCodesHelp } from '../../shared/model/failures.ts';
import { PRESET_NAMES, type BenchEvent, type BenchSpec, type PresetName } from '../../shared/model/spec.ts';
import { RUN_SETTINGS, type RunSettingDef } from '../../shared/model/run-settings.ts';
import { WORKER_OPTIONS, type WorkerOption } from '../../shared/model/worker-options.ts';
import { settingFlags, settingsFromFlags, settingsHelp } from '../run-setting-flags.ts';
import { JOB_HELP, jobTests } from '../job-flag.ts';
import type { RunRecord, Statistic, TestResult } from '../../shared/model/results.ts';
import { STEADY_MAX_ROUNDS } from '../../shared/analysis/steady-state.ts';
import { table } from '../system-format.ts';
import { EXIT_FAILURE, UsageError, parseFlags, type CliCommand } from '../args.ts';
import { ProgressBar } from '../progress-bar.ts';
import { wrap } from '../wrap.ts';
import { figureLines } from '../figures-text.ts';
import { checkLabel } from '../library-cli.ts';
import { stopOnSignals } from '../signals.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { confirm, writeOut, writeErr } from '../terminal.ts';
import { sayFailure } from '../failure-out.ts';
import { warningLines } from '../warning-lines.ts';
import { formatCount } from '../../shared/analysis/units.ts';

/** The command's --help over a table of run settings (the real one, or a throwaway one in tests). */
export function runHelp(settings: readonly RunSettingDef[] = RUN_SETTINGS): string {
  return `Usage: diskdelta run --target PATH [options]

Measures the disk under PATH: a folder (a test file is created there, filled with
incompressible data and always removed) or a block device (read tests only, opened read-only).

Options:
  --target PATH        folder or block device to test (required)
  --preset NAME        ${PRESET_NAMES.map((n) => `${n}`).join(' | ')} (default ${DEFAULT_PRESET})
${PRESET_NAMES.map((n) => `                         ${n.padEnd(9)} ${PRESETS[n].description}${presetStoryGap(n) ? `; ${presetStoryGap(n)}` : ''}`).join('\n')}
  --tests ID,ID,…      run these tests instead of the preset's, at its settings (size, time, runs):
${TESTS.map((t) => `                         ${t.id.padEnd(18)} ${t.label}`).join('\n')}
${JOB_HELP}
${settingsHelp(settings)}
  --label TEXT         a name for this run, e.g. "HDD", "SSD + dm-crypt"
  --elevate            a block device you cannot read: ask once (polkit, pkexec) for the
                       privileged helper to open it read-only; the measuring stays yours.
                       Without it a terminal asks first; as root no helper is used.
                       On an NVMe disk: the helper also reads the drive's SMART log before
                       and after (as root always; without --elevate the run says why not).
                       With app-start: the helper drops the page cache before each pass
  --tarball FILE       the 'tarball' workload: extract your own tarball with tar (decompression
                       included, as the seed timed it) + sync, delete it + sync
  --json               print exactly one JSON document on stdout
  --keep-finished      on a stop (Ctrl-C, a signal), keep the tests that had finished, the run
                       marked as cut short (exit 7), instead of cancelling it whole
  --no-save            do not keep the run in the results library
  --db PATH            results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)

${wrap(exitCodesHelp())} A library that cannot be opened or is damaged is found before
measuring (exit 1); one that fails to save a finished run still gets the results printed (exit 10).
`;
}

/** The command's flags over a table of run settings. */
export function runFlags(settings: readonly RunSettingDef[] = RUN_SETTINGS) {
  return {
    target: { type: 'string' },
    preset: { type: 'string' },
    tests: { type: 'string' },
    job: { type: 'string', multiple: true },
    ...settingFlags(settings),
    label: { type: 'string' },
    elevate: { type: 'boolean' },
    tarball: { type: 'string' },
    json: { type: 'boolean' },
    'keep-finished': { type: 'boolean' },
    'no-save': { type: 'boolean' },
    db: { type: 'string' },
  } as const;
}

export const runCommand: CliCommand = {
  help: runHelp(),
  async run(argv) {
    const { values } = parseFlags(argv, runFlags());
    const spec = specFromFlags(values);
    const json = values.json === true;
    // The library is opened and checked before minutes of measuring, not after.
    const { library, failure } = openLibraryToSave('run', values.db, values['no-save'] === true);
    if (failure !== null) return sayFailure('run', failure, EXIT_FAILURE);
    if (!spec.elevate && !json && process.stdin.isTTY && process.stderr.isTTY && (await needsElevation(spec.target))) {
      spec.elevate = await confirm(
        `Reading ${spec.target} needs administrator rights. Ask for them once through polkit (only the open is privileged)? [y/N] `,
      );
    }
    const bar = !json && process.stdout.isTTY ? new ProgressBar() : null;
    const stop = stopOnSignals();
    try {
      const record = await runBenchmark(spec, {
        signal: stop.signal,
        surface: 'cli',
        keepFinished: values['keep-finished'] === true,
        onEvent: (event: BenchEvent) => {
          if (event.type === 'progress') bar?.update(event);
          // Waiting for the disk is said even with --json (on stderr): a silent wait looks like a hang.
          else if (event.type === 'warning' && (!json || event.code === 'disk-busy')) {
            bar?.clear();
            writeErr(`warning: ${terminalField(event.message)}\n`);
          }
        },
      });
      bar?.clear();
      const outcome = await saveMeasured(library, [record]);
      // The measurement is printed whether or not it could be kept.
      writeOut(json ? `${JSON.stringify(toJson(record), null, 2)}\n` : formatRecord(record));
      // Cut short by a stop, its finished tests kept: still the stop's status.
      const cut = record.warnings.some((w) => w.code === CUT_SHORT);
      if (outcome === null || outcome.saved) return cut ? exitCodeOf('interrupted') : 0;
      // The measured document is already on stdout (--json too): exit 10 and this line say the rest.
      writeErr(notSavedLine('run', outcome));
      return exitCodeOf('not-saved');
    } catch (error) {
      bar?.clear();
      // main() says a BenchError (failure-out.ts), as for every command.
      throw error;
    } finally {
      library?.close();
      stop.release();
    }
  },
};

interface RunFlags {
  target?: string;
  tarball?: string;
  preset?: string;
  tests?: string;
  label?: string;
  elevate?: boolean;
  job?: string[];
  /** The run settings' flags (run-setting-flags.ts), by flag name. */
  [flag: string]: string | boolean | string[] | undefined;
}

export function specFromFlags(
  values: RunFlags,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): BenchSpec {
  if (!values.target) throw new UsageError('--target PATH is required: the folder (or block device) to test');
  if (values.preset && !(PRESET_NAMES as readonly string[]).includes(values.preset)) {
    throw new UsageError(`--preset '${values.preset}' is unknown: use ${PRESET_NAMES.join(', ')}`);
  }
  let tests: string[] | undefined;
  if (values.tests !== undefined) {
    const ids = values.tests
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = ids.filter((id) => !isRunnableTest(id));
    if (ids.length === 0 || bad.length > 0) {
      throw new UsageError(
        `--tests: unknown test '${bad[0] ?? values.tests}'; known: ${TESTS.map((t) => t.id).join(', ')}, or a rate test by its parameters (--job, e.g. seq128k-q32t1-read)`,
      );
    }
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw new UsageError(`--tests names '${twice}' twice: each test runs once (use --runs for more runs)`);
    tests = ids;
  }
  if (values.job?.length) {
    const ids = [...(tests ?? []), ...jobTests(values.job)];
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw new UsageError(`--tests and --job name the test '${twice}' twice: each test runs once (use --runs for more runs)`);
    tests = ids;
  }
  const spec: BenchSpec = { target: values.target };
  if (values.preset) spec.preset = values.preset as PresetName;
  if (tests) spec.tests = tests;
  Object.assign(spec, settingsFromFlags(values, settings, options));
  if (values.label !== undefined) spec.label = checkLabel(values.label, '--label');
  if (values.elevate) spec.elevate = true;
  if (values.tarball !== undefined) {
    // Alone it picks the tarball workload; with --tests, that list must name it.
    if (spec.tests && !spec.tests.includes('tarball')) throw new UsageError("--tarball is for the 'tarball' workload: add it to --tests");
    spec.tests ??= ['tarball'];
    spec.tarball = resolve(values.tarball);
  } else if (spec.tests?.includes('tarball'))
    throw new UsageError("the 'tarball' workload needs --tarball FILE (a .tar, .tar.gz or .tar.xz)");
  return spec;
}

const STATISTIC_HEADER: Record<Statistic, string> = { median: 'median', best: 'best run', mean: 'mean', single: 'single run' };

/** The documented --json document: the issue's fields first, everything else after. */
function toJson(record: RunRecord) {
  return {
    id: record.id ?? null,
    label: record.label,
    createdAt: record.createdAt,
    target: record.target,
    system: record.system,
    settings: record.settings,
    engine: record.engine,
    results: record.results.map((r) => ({
      test: r.test,
      bytesPerSec: r.bytesPerSec,
      iops: r.iops,
      latencyNs: r.latencyNs,
      runs: r.runs,
      cv: r.cv,
      warnings: r.warnings,
      best: r.best,
      underResolved: r.underResolved,
      // How the runs were combined (median, best, a steady window's mean): a figure says what it is.
      ...(r.statistic ? { statistic: r.statistic } : {}),
      precision: r.precision,
      params: r.params,
      cpu: r.cpu,
      histogram: r.histogram,
      // Kinds that are not rates (a workload's seconds per phase): absent for rate tests.
      ...(r.figures?.length ? { figures: r.figures } : {}),
    })),
    warnings: record.warnings,
    ...(record.temperature ? { temperature: record.temperature } : {}),
    ...(record.fill ? { fill: record.fill } : {}),
    ...(record.drive ? { drive: record.drive } : {}),
  };
}

/** "±1.3 % · 7 runs, 2.1 s": the interval the median reached, and what it took. */
function precisionCell(p: TestResult['precision'], runs: number): string {
  if (!p) return '—';
  // One run has no interval (nothing to compare it with): say so rather than "±?".
  const ci = p.ciRelative === null ? 'no interval' : `±${(p.ciRelative * 100).toFixed(1)} %`;
  return `${ci} · ${counted(runs, 'run')}, ${p.seconds.toFixed(1)} s${p.stoppedBy === 'max-time' ? ' (time up)' : ''}`;
}

export function formatRecord(record: RunRecord): string {
  // A workload's seconds per phase are "other figures", not a row of rates.
  const rates = record.results.filter((r) => r.params !== null || !r.figures?.length);
  const rows = rates.map((r) => {
    const seeks = (r.params ?? null)?.rw === 'seeks';
    return [
      testLabel(r.test, r.params),
      // A flagged median carries its interval (figure-text.ts), so no table prints it bare.
      r.bytesPerSec === null || seeks ? '—' : rateFigureText(r, 'bytesPerSec'),
      r.iops === null ? '—' : rateFigureText(r, 'iops', 'MB', { seeks }),
      latencyFigureText(r.latencyNs, 'p50'),
      latencyFigureText(r.latencyNs, 'mean'),
      latencyFigureText(r.latencyNs, 'p99'),
      r.cv === null ? '—' : `${(r.cv * 100).toFixed(1)} %`,
      precisionCell(r.precision, r.runs.length),
      r.warnings.length ? r.warnings.map((w) => w.code).join(', ') : '',
    ];
  });
  const s = record.settings;
  const head =
    `DiskDelta ${record.engine.version} · ${record.target.path}` +
    (record.target.device ? ` (${measuredDeviceText(record.target, { withFile: true })}, ${record.target.device.class})` : '') +
    (rates.length === 0
      ? s.runs === undefined
        ? ''
        : `\n${counted(s.runs ?? 0, 'timed pass')} per workload after a warm-up pass`
      : s.preset === 'steady'
        ? `\nrounds of ${s.durationSec} s after ${s.warmupSec} s warm-up, from ${s.runs} until 5 in a row are steady (SNIA PTS) or ${STEADY_MAX_ROUNDS} have run; test file`
        : s.precision
          ? `\nruns of ${s.durationSec} s per test after ${s.warmupSec} s warm-up, at least ${s.runs}, until the median is known within ±${(s.precision * 100).toFixed(1)} % (95 %) or ${s.maxTimeSec} s; test file`
          : `\n${counted(s.runs ?? 0, 'run')} × ${s.durationSec} s per test after ${s.warmupSec} s warm-up, test file`) +
    (rates.length === 0
      ? ''
      : ` ${formatCount((s.sizeBytes ?? 0) / 2 ** 20)} MiB, I/O engine ${record.engine.ioEngine ?? 'not reported'}`) +
    (s.sustainedSpanBytes === undefined ? '' : `\n${sustainedSettingsText(s)}`) +
    (record.id !== undefined ? `, saved as run #${record.id}` : '') +
    '\n\n';
  // How the figures combine their runs, said in the header (a best-of-3 preset's are no medians).
  const statistics = new Set(rates.map((r) => r.statistic ?? 'median'));
  const combined =
    s.preset === 'steady' ? "steady rounds' mean" : statistics.size === 1 ? STATISTIC_HEADER[[...statistics][0]!] : 'see each test';
  const body =
    rows.length === 0
      ? ''
      : table(
          [
            'test',
            `throughput (${combined})`,
            `IOPS (${combined})`,
            'latency p50',
            'latency mean',
            'latency p99',
            'spread (CV)',
            'median ±95 %',
            'warnings',
          ],
          rows,
        );
  const figures = figureLines(record.results);
  const notes = warningLines(record, { codes: false });
  // The stored warnings name settings in words (the app shows them too); here, their flags.
  const codes = new Set([...record.warnings, ...record.results.flatMap((r) => r.warnings)].map((w) => w.code));
  if (codes.has('noisy') || codes.has('under-resolved'))
    notes.push('more runs and more time per test: --runs N, --duration SEC, or with --precision, --max-time SEC');
  const temperature = record.temperature ? `\nDrive temperature: ${temperatureText(record.temperature)}\n` : '';
  const fill = record.fill ? `${temperature ? '' : '\n'}Fill level: ${fillText(record.fill)}\n` : '';
  const drive = record.drive ? `Drive's counters: ${driveWrittenText(record.drive)}\n` : '';
  return (
    head +
    body +
    temperature +
    fill +
    drive +
    (figures.length ? `${rows.length ? '\n' : ''}${rows.length ? 'Other figures' : 'Figures'}:\n${figures.join('\n')}\n` : '') +
    (notes.length ? `\nWarnings:\n${notes.map((line) => `  - ${line}`).join('\n')}\n` : '')
  );
}
