// `diskdelta run`: measure the disk under a folder (or a block device, read tests only).
import { formatLatency, formatThroughput, formatIops } from '../../core/analysis/units.ts';
import { BenchError } from '../../core/bench/errors.ts';
import { runBenchmark } from '../../core/bench/orchestrator.ts';
import { PRESETS } from '../../core/bench/presets.ts';
import { isCatalogTest, testLabel, TESTS } from '../../core/model/catalog.ts';
import { exitCodesHelp } from '../../core/model/failures.ts';
import { PRESET_NAMES, type BenchEvent, type BenchSpec, type PresetName } from '../../core/bench/spec.ts';
import type { RunRecord } from '../../core/model/results.ts';
import { openLibrary, resolveDbPath } from '../../core/store/library.ts';
import { table } from '../system-format.ts';
import { UsageError, parseCount, parseDuration, parseFlags, parseSize, type CliCommand } from '../args.ts';
import { ProgressBar } from '../progress-bar.ts';
import { wrap } from '../wrap.ts';
import { figureLines } from '../figures-text.ts';

const HELP = `Usage: diskdelta run --target PATH [options]

Measures the disk under PATH: a folder (a test file is created there, filled with
incompressible data and always removed) or a block device (read tests only, opened read-only).

Options:
  --target PATH        folder or block device to test (required)
  --preset NAME        ${PRESET_NAMES.map((n) => `${n}`).join(' | ')} (default standard)
${PRESET_NAMES.map((n) => `                         ${n.padEnd(9)} ${PRESETS[n].description}`).join('\n')}
  --tests ID,ID,…      run these tests instead of a preset's:
${TESTS.map((t) => `                         ${t.id.padEnd(18)} ${t.label}`).join('\n')}
  --size SIZE          test file size, e.g. 256MiB, 1GiB, 1G (default: the preset's, 1 GiB)
  --duration SECONDS   timed window of each run, e.g. 1.5, 5s (default: the preset's)
  --warmup SECONDS     untimed I/O before each test (default: the preset's)
  --runs N             timed runs per test; the median is reported (default: the preset's)
  --label TEXT         a name for this run, e.g. "HDD", "SSD + dm-crypt"
  --buffered           allow page-cache I/O where O_DIRECT is impossible (tmpfs); flagged
  --json               print exactly one JSON document on stdout
  --no-save            do not keep the run in the results library
  --db PATH            results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)

${wrap(exitCodesHelp())}
`;

export const runCommand: CliCommand = {
  name: 'run',
  synopsis: 'run --target PATH [options]',
  summary: 'measure the disk under PATH (a folder or a block device)',
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
      label: { type: 'string' },
      buffered: { type: 'boolean' },
      json: { type: 'boolean' },
      'no-save': { type: 'boolean' },
      db: { type: 'string' },
    });
    const spec = specFromFlags(values);
    const json = values.json === true;
    const bar = !json && process.stdout.isTTY ? new ProgressBar(process.stdout) : null;
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const record = await runBenchmark(spec, {
        signal: controller.signal,
        onEvent: (event: BenchEvent) => {
          if (event.type === 'progress') bar?.update(event);
          else if (event.type === 'warning' && !json) {
            bar?.clear();
            process.stderr.write(`warning: ${event.message}\n`);
          }
        },
      });
      bar?.clear();
      if (!values['no-save']) {
        const library = openLibrary({ dbPath: resolveDbPath(values.db) });
        try {
          record.id = library.saveRun(record);
        } finally {
          library.close();
        }
      }
      process.stdout.write(json ? `${JSON.stringify(toJson(record), null, 2)}\n` : formatRecord(record));
      return 0;
    } catch (error) {
      bar?.clear();
      if (error instanceof BenchError) {
        process.stderr.write(`diskdelta run: ${error.message}\n`);
        return error.exitCode;
      }
      throw error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

interface RunFlags {
  target?: string; preset?: string; tests?: string; size?: string; duration?: string; warmup?: string;
  runs?: string; label?: string; buffered?: boolean;
}

export function specFromFlags(values: RunFlags): BenchSpec {
  if (!values.target) throw new UsageError('--target PATH is required: the folder (or block device) to test');
  if (values.preset && values.tests) throw new UsageError('give either --preset or --tests, not both');
  if (values.preset && !(PRESET_NAMES as readonly string[]).includes(values.preset)) {
    throw new UsageError(`--preset '${values.preset}' is unknown: use ${PRESET_NAMES.join(', ')}`);
  }
  let tests: string[] | undefined;
  if (values.tests !== undefined) {
    const ids = values.tests.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = ids.filter((id) => !isCatalogTest(id));
    if (ids.length === 0 || bad.length > 0) {
      throw new UsageError(`--tests: unknown test '${bad[0] ?? values.tests}'; known: ${TESTS.map((t) => t.id).join(', ')}`);
    }
    tests = ids;
  }
  const spec: BenchSpec = { target: values.target };
  if (values.preset) spec.preset = values.preset as PresetName;
  if (tests) spec.tests = tests;
  if (values.size !== undefined) {
    spec.sizeBytes = parseSize(values.size, '--size');
    if (spec.sizeBytes < 16 * 1024 * 1024) throw new UsageError(`--size '${values.size}' is too small: use at least 16MiB`);
  }
  if (values.duration !== undefined) {
    spec.durationSec = parseDuration(values.duration, '--duration');
    if (spec.durationSec < 0.2 || spec.durationSec > 3600) throw new UsageError(`--duration '${values.duration}' is out of range: use 0.2 s to 3600 s`);
  }
  if (values.warmup !== undefined) {
    // No warm-up is a valid choice in any spelling (0, 0s, 0.0, 0ms); parseDuration refuses zero.
    spec.warmupSec = /^\s*0+(\.0*)?\s*(ms|s|m)?\s*$/i.test(values.warmup) ? 0 : parseDuration(values.warmup, '--warmup');
    if (spec.warmupSec > 600) throw new UsageError(`--warmup '${values.warmup}' is out of range: use 0 s to 600 s`);
  }
  if (values.runs !== undefined) spec.runs = parseCount(values.runs, '--runs', 1, 100);
  if (values.label !== undefined) spec.label = values.label;
  if (values.buffered) spec.buffered = true;
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
      params: r.params,
      cpu: r.cpu,
      histogram: r.histogram,
    })),
    warnings: record.warnings,
  };
}

export function formatRecord(record: RunRecord): string {
  const rows = record.results.map((r) => {
    const seeks = (r.params ?? null)?.rw === 'seeks';
    return [
      testLabel(r.test, r.params),
      r.bytesPerSec === null || seeks ? '—' : formatThroughput(r.bytesPerSec),
      r.iops === null ? '—' : formatIops(r.iops, seeks ? 'seeks/s' : 'IOPS'),
      r.latencyNs?.p50 == null ? '—' : formatLatency(r.latencyNs.p50),
      r.latencyNs?.p99 == null ? '—' : formatLatency(r.latencyNs.p99),
      r.cv === null ? '—' : `${(r.cv * 100).toFixed(1)} %`,
      r.warnings.length ? r.warnings.map((w) => w.code).join(', ') : '',
    ];
  });
  const s = record.settings;
  const head =
    `DiskDelta ${record.engine.version} · ${record.target.path}` +
    (record.target.device ? ` (${record.target.device.name}, ${record.target.device.class})` : '') +
    `\n${s.runs} run(s) × ${s.durationSec} s per test after ${s.warmupSec} s warm-up, test file ${((s.sizeBytes ?? 0) / 2 ** 20).toFixed(0)} MiB, I/O engine ${record.engine.ioEngine ?? '?'}` +
    (record.id !== undefined ? `, saved as run #${record.id}` : '') +
    '\n\n';
  const body = table(['test', 'throughput (median)', 'IOPS (median)', 'latency p50', 'latency p99', 'spread (CV)', 'warnings'], rows);
  const figures = figureLines(record.results);
  const notes = [...record.warnings, ...record.results.flatMap((r) => r.warnings.map((w) => ({ ...w, message: `${r.test}: ${w.message}` })))];
  return head + body + (figures.length ? `\nOther figures:\n${figures.join('\n')}\n` : '') + (notes.length ? `\nWarnings:\n${notes.map((w) => `  - ${w.message}`).join('\n')}\n` : '');
}
