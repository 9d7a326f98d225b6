// `diskdelta run`: measure the disk under a folder (or a block device, read tests only).
import { counted } from '../../core/model/display.ts';
import { resolve } from 'node:path';
import { formatLatency, formatThroughput, formatIops } from '../../core/analysis/units.ts';
import { needsElevation } from '../../core/bench/elevation.ts';
import { BenchError } from '../../core/bench/errors.ts';
import { measuredDeviceText } from '../../core/model/run-text.ts';
import { runBenchmark } from '../../core/bench/orchestrator.ts';
import { PRESETS } from '../../core/bench/presets.ts';
import { isCatalogTest, testLabel, TESTS } from '../../core/model/catalog.ts';
import { exitCodeOf, exitCodesHelp } from '../../core/model/failures.ts';
import { MAX_SIZE_BYTES, PRESET_NAMES, type BenchEvent, type BenchSpec, type PresetName } from '../../core/bench/spec.ts';
import type { RunRecord, TestResult } from '../../core/model/results.ts';
import { table } from '../system-format.ts';
import {
  EXIT_FAILURE,
  UsageError,
  parseCount,
  parseDuration,
  parseDurationOrZero,
  parseFlags,
  parseSize,
  type CliCommand,
} from '../args.ts';
import { ProgressBar } from '../progress-bar.ts';
import { wrap } from '../wrap.ts';
import { figureLines } from '../figures-text.ts';
import { checkLabel } from '../library-cli.ts';
import { STOP_SIGNALS } from '../signals.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { confirm, writeOut, writeErr } from '../terminal.ts';

const HELP = `Usage: diskdelta run --target PATH [options]

Measures the disk under PATH: a folder (a test file is created there, filled with
incompressible data and always removed) or a block device (read tests only, opened read-only).

Options:
  --target PATH        folder or block device to test (required)
  --preset NAME        ${PRESET_NAMES.map((n) => `${n}`).join(' | ')} (default standard)
${PRESET_NAMES.map((n) => `                         ${n.padEnd(9)} ${PRESETS[n].description}`).join('\n')}
  --tests ID,ID,…      run these tests instead of the preset's, at its settings (size, time, runs):
${TESTS.map((t) => `                         ${t.id.padEnd(18)} ${t.label}`).join('\n')}
  --size SIZE          test file size, e.g. 256MiB, 1GiB, 1G (default: the preset's, 1 GiB)
  --duration SECONDS   timed window of each run, e.g. 1.5, 5s (default: the preset's)
  --warmup SECONDS     untimed I/O before each test (default: the preset's)
  --runs N             timed runs per test; the median is reported. Given alone, exactly N
                       runs (CrystalDiskMark: --runs 5 --duration 5); with --precision, the fewest
  --precision PCT      add runs until the median's 95 % interval is within ±PCT, e.g. 2%
                       (standard and full: 2%; 0 for a fixed count of runs)
  --max-time SECONDS   with --precision: the most timed seconds per test (default: the preset's, 1.2 s)
  --label TEXT         a name for this run, e.g. "HDD", "SSD + dm-crypt"
  --buffered           allow page-cache I/O where O_DIRECT is impossible (tmpfs); flagged
  --elevate            a block device you cannot read: ask once (polkit, pkexec) for the
                       privileged helper to open it read-only; the measuring stays yours.
                       Without it a terminal asks first; as root no helper is used.
                       With app-start: the helper drops the page cache before each pass
  --tarball FILE       the 'tarball' workload: extract your own tarball with tar (decompression
                       included, as the seed timed it) + sync, delete it + sync
  --json               print exactly one JSON document on stdout
  --no-save            do not keep the run in the results library
  --db PATH            results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)

${wrap(exitCodesHelp())} A library that cannot be opened or is damaged is found before
measuring (exit 1); one that fails to save a finished run still gets the results printed (exit 10).
`;

export const runCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      target: { type: 'string' },
      preset: { type: 'string' },
      tests: { type: 'string' },
      size: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      runs: { type: 'string' },
      precision: { type: 'string' },
      'max-time': { type: 'string' },
      label: { type: 'string' },
      buffered: { type: 'boolean' },
      elevate: { type: 'boolean' },
      tarball: { type: 'string' },
      json: { type: 'boolean' },
      'no-save': { type: 'boolean' },
      db: { type: 'string' },
    });
    const spec = specFromFlags(values);
    const json = values.json === true;
    // The library is opened and checked before minutes of measuring, not after.
    const { library, failure } = openLibraryToSave('run', values.db, values['no-save'] === true);
    if (failure !== null) {
      writeErr(failure);
      return EXIT_FAILURE;
    }
    if (!spec.elevate && !json && process.stdin.isTTY && process.stderr.isTTY && (await needsElevation(spec.target))) {
      spec.elevate = await confirm(
        `Reading ${spec.target} needs administrator rights. Ask for them once through polkit (only the open is privileged)? [y/N] `,
      );
    }
    const bar = !json && process.stdout.isTTY ? new ProgressBar() : null;
    const controller = new AbortController();
    // `on`, not `once`: a second signal (Ctrl-C reaches both bin/diskdelta.js and this process,
    // which then forwards it) must not kill the process before the worker has cleaned up.
    const onSignal = () => controller.abort();
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    try {
      const record = await runBenchmark(spec, {
        signal: controller.signal,
        onEvent: (event: BenchEvent) => {
          if (event.type === 'progress') bar?.update(event);
          // Waiting for the disk is said even with --json (on stderr): a silent wait looks like a hang.
          else if (event.type === 'warning' && (!json || event.code === 'disk-busy')) {
            bar?.clear();
            writeErr(`warning: ${event.message}\n`);
          }
        },
      });
      bar?.clear();
      const outcome = await saveMeasured(library, [record]);
      // The measurement is printed whether or not it could be kept.
      writeOut(json ? `${JSON.stringify(toJson(record), null, 2)}\n` : formatRecord(record));
      if (outcome === null || outcome.saved) return 0;
      writeErr(notSavedLine('run', outcome));
      return exitCodeOf('not-saved');
    } catch (error) {
      bar?.clear();
      if (error instanceof BenchError) {
        writeErr(`diskdelta run: ${error.message}\n`);
        return error.exitCode;
      }
      throw error;
    } finally {
      library?.close();
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    }
  },
};

interface RunFlags {
  target?: string;
  tarball?: string;
  preset?: string;
  tests?: string;
  size?: string;
  duration?: string;
  warmup?: string;
  runs?: string;
  precision?: string;
  'max-time'?: string;
  label?: string;
  buffered?: boolean;
  elevate?: boolean;
}

export function specFromFlags(values: RunFlags): BenchSpec {
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
    const bad = ids.filter((id) => !isCatalogTest(id));
    if (ids.length === 0 || bad.length > 0) {
      throw new UsageError(`--tests: unknown test '${bad[0] ?? values.tests}'; known: ${TESTS.map((t) => t.id).join(', ')}`);
    }
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw new UsageError(`--tests names '${twice}' twice: each test runs once (use --runs for more runs)`);
    tests = ids;
  }
  const spec: BenchSpec = { target: values.target };
  if (values.preset) spec.preset = values.preset as PresetName;
  if (tests) spec.tests = tests;
  if (values.size !== undefined) {
    spec.sizeBytes = parseSize(values.size, '--size');
    if (spec.sizeBytes < 16 * 1024 * 1024) throw new UsageError(`--size '${values.size}' is too small: use at least 16MiB`);
    if (spec.sizeBytes > MAX_SIZE_BYTES) throw new UsageError(`--size '${values.size}' is too large: use at most 1PiB (no disk is larger)`);
  }
  if (values.duration !== undefined) {
    spec.durationSec = parseDuration(values.duration, '--duration');
    if (spec.durationSec < 0.2 || spec.durationSec > 3600)
      throw new UsageError(`--duration '${values.duration}' is out of range: use 0.2 s to 3600 s`);
  }
  if (values.warmup !== undefined) {
    spec.warmupSec = parseDurationOrZero(values.warmup, '--warmup');
    if (spec.warmupSec > 600) throw new UsageError(`--warmup '${values.warmup}' is out of range: use 0 s to 600 s`);
  }
  if (values.runs !== undefined) spec.runs = parseCount(values.runs, '--runs', 1, 100);
  if (values.precision !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(values.precision);
    const pct = m ? Number(m[1]) : Number.NaN;
    if (!(pct >= 0 && pct <= 50)) throw new UsageError(`--precision '${values.precision}' is not a percentage from 0 to 50, e.g. 2%`);
    spec.precision = pct / 100;
  }
  if (values['max-time'] !== undefined) {
    spec.maxTimeSec = parseDuration(values['max-time'], '--max-time');
    if (spec.maxTimeSec < 0.2 || spec.maxTimeSec > 36000)
      throw new UsageError(`--max-time '${values['max-time']}' is out of range: use 0.2 s to 10 h`);
  }
  if (values.label !== undefined) spec.label = checkLabel(values.label, '--label');
  if (values.buffered) spec.buffered = true;
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
      precision: r.precision,
      params: r.params,
      cpu: r.cpu,
      histogram: r.histogram,
      // Kinds that are not rates (a workload's seconds per phase): absent for rate tests.
      ...(r.figures?.length ? { figures: r.figures } : {}),
    })),
    warnings: record.warnings,
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
      r.bytesPerSec === null || seeks ? '—' : formatThroughput(r.bytesPerSec),
      r.iops === null ? '—' : formatIops(r.iops, seeks ? 'seeks/s' : 'IOPS'),
      r.latencyNs?.p50 == null ? '—' : formatLatency(r.latencyNs.p50),
      r.latencyNs?.p99 == null ? '—' : formatLatency(r.latencyNs.p99),
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
      ? `\n${counted(s.runs ?? 0, 'timed pass')} per workload after a warm-up pass`
      : s.precision
        ? `\nruns of ${s.durationSec} s per test after ${s.warmupSec} s warm-up, at least ${s.runs}, until the median is known within ±${(s.precision * 100).toFixed(1)} % (95 %) or ${s.maxTimeSec} s; test file`
        : `\n${counted(s.runs ?? 0, 'run')} × ${s.durationSec} s per test after ${s.warmupSec} s warm-up, test file`) +
    (rates.length === 0 ? '' : ` ${((s.sizeBytes ?? 0) / 2 ** 20).toFixed(0)} MiB, I/O engine ${record.engine.ioEngine ?? '?'}`) +
    (record.id !== undefined ? `, saved as run #${record.id}` : '') +
    '\n\n';
  const body =
    rows.length === 0
      ? ''
      : table(
          ['test', 'throughput (median)', 'IOPS (median)', 'latency p50', 'latency p99', 'spread (CV)', 'median ±95 %', 'warnings'],
          rows,
        );
  const figures = figureLines(record.results);
  const notes = [
    ...record.warnings,
    ...record.results.flatMap((r) => r.warnings.map((w) => ({ ...w, message: `${r.test}: ${w.message}` }))),
  ];
  return (
    head +
    body +
    (figures.length ? `${rows.length ? '\n' : ''}${rows.length ? 'Other figures' : 'Figures'}:\n${figures.join('\n')}\n` : '') +
    (notes.length ? `\nWarnings:\n${notes.map((w) => `  - ${w.message}`).join('\n')}\n` : '')
  );
}
