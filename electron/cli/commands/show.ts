// `diskdelta show ID`: one run with all of its context — where it came from, the device and
// storage stack, the machine, the settings — and every result with its unit.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DB_HELP, formatTable, parseRunId, parseUnitFlag, requireRuns, withLibrary } from '../library-cli.ts';
import { isFailedResult, type RunRecord, type TestResult } from '../../shared/model/results.ts';
import { engineText, measuredDeviceText } from '../../shared/model/run-text.ts';
import { temperatureText } from '../../shared/model/temperature-text.ts';
import { fillText } from '../../shared/analysis/fill-level.ts';
import { driveWrittenText } from '../../shared/analysis/drive-health.ts';
import type { DeviceFingerprint } from '../../shared/model/machine.ts';
import { counted } from '../../shared/model/display.ts';
import { formatStack } from '../system-format.ts';
import { testTitle } from '../../shared/analysis/compare.ts';
import { figureLines, perGiBLines } from '../figures-text.ts';
import { surfaceResultLines } from '../surface-text.ts';
import { surfaceOfResult } from '../../shared/analysis/surface.ts';
import { sustainedSettingsText } from '../../shared/analysis/sustained-write.ts';
import {
  describeThroughputUnit,
  formatBytes,
  formatLatency,
  formatNumber,
  formatThroughput,
  type ThroughputUnit,
} from '../../shared/analysis/units.ts';
import { latencyFigureText, rateFigureText } from '../../shared/analysis/figure-text.ts';
import { writeOut } from '../terminal.ts';
import { warningLines } from '../warning-lines.ts';

const HELP = `Usage: diskdelta show ID [--json] [--unit MB|MiB|KB] [--db FILE]

Shows run ID: its source, device, storage stack, machine, settings, every result, the
figures kept from an imported file, and every warning.

  --unit U     throughput unit: MB (10^6 bytes/s, default), MiB (2^20), KB (KiB, bonnie++'s K)
  --json       print the whole run as JSON (raw units: bytes/s, IOPS, nanoseconds)
${DB_HELP}`;

function formatDevice(d: DeviceFingerprint): string {
  const parts = [d.name, d.model ?? 'unknown model', d.class];
  if (d.serial) parts.push(`serial ${d.serial}`);
  if (d.sizeBytes !== null) parts.push(formatBytes(d.sizeBytes));
  if (d.transport) parts.push(d.transport);
  if (d.linkDescription) parts.push(`link ${d.linkDescription}`);
  else if (d.linkCeilingBytesPerSec !== null) parts.push(`link ceiling ${formatThroughput(d.linkCeilingBytesPerSec)}`);
  return parts.join(', ');
}

function formatParams(r: TestResult): string {
  if (!r.params) return '—';
  const p = r.params;
  const mix = p.readPercent !== undefined ? ` ${p.readPercent}% read` : '';
  const span = p.spanMiB !== undefined ? ` over ${formatBytes(p.spanMiB * 2 ** 20)}` : '';
  return `${p.rw}${mix} ${formatBytes(p.blockSize)} Q${p.queueDepth}T${p.threads}${span}`;
}

function resultRow(r: TestResult, unit: ThroughputUnit): string[] {
  const lat = r.latencyNs;
  const failed = isFailedResult(r);
  const flags = [
    failed ? 'FAILED' : '',
    r.underResolved ? 'under-resolved' : '',
    r.warnings.length ? `${r.warnings.length} warning(s)` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return [
    r.test,
    formatParams(r),
    // A flagged median carries its interval (figure-text.ts), so no table prints it bare.
    r.bytesPerSec !== null ? rateFigureText(r, 'bytesPerSec', unit) : failed ? 'failed' : r.underResolved ? '+++++' : '—',
    r.iops !== null ? rateFigureText(r, 'iops', unit, { seeks: r.test === 'seeks' }) : '—',
    latencyFigureText(lat, 'p50'),
    latencyFigureText(lat, 'mean'),
    lat?.p99 != null ? formatLatency(lat.p99) : lat?.max != null ? `${formatLatency(lat.max)} (max)` : '—',
    r.cv !== null ? `${(r.cv * 100).toFixed(1)} %` : '—',
    r.runs.length ? String(r.runs.length) : '—',
    flags,
  ];
}

export function formatRun(run: RunRecord, unit: ThroughputUnit): string {
  const out: string[] = [];
  const tag = run.source === 'measured' ? '' : `  [${run.source.toUpperCase()}]`;
  out.push(`Run ${run.id ?? '(unsaved)'}${run.label ? `: ${run.label}` : ' (no label: diskdelta label ID TEXT names it)'}${tag}`);
  const field = (name: string, value: string) => out.push(`  ${name.padEnd(10)}  ${value}`);
  field('created', run.createdAt);
  const origin =
    run.source === 'measured' ? 'measured by DiskDelta' : run.source === 'reference' ? 'reference data shipped with DiskDelta' : 'imported';
  field('source', `${origin} (format: ${run.sourceFormat})`);
  if (run.notes) field('notes', run.notes);
  field('engine', `${engineText(run.engine)}${run.engine.ioEngine ? ` (I/O engine ${run.engine.ioEngine})` : ''}`);
  // "(unknown)" after a path read like an unknown target: an import's path is as its file named it.
  const kind =
    run.target.kind !== 'unknown' ? run.target.kind : run.source === 'measured' ? 'kind unknown' : 'as named in the imported file';
  if (run.target.path || run.target.kind !== 'unknown') field('target', `${run.target.path || '—'} (${kind})`);
  if (run.target.device) field('device', formatDevice(run.target.device));
  // Through a loop device the run measured the loop and its backing file as much as the disk.
  if (run.target.stack?.some((l) => l.kind === 'loop'))
    field('measured', measuredDeviceText(run.target, { withFile: true }) ?? 'unknown (the run carries no device facts)');
  if (run.temperature) field('drive temp', temperatureText(run.temperature));
  // SSDs slow as they fill: the level the run found, beside its figures.
  if (run.fill) field('fill level', fillText(run.fill));
  if (run.drive) field('drive wrote', driveWrittenText(run.drive));
  if (run.target.stack?.length) {
    // The same stack view as `diskdelta inspect`: facts in words, never the model's keys.
    field('stack', 'from the file down to the disk:');
    out.push(...formatStack(run.target.stack, '    '));
  }
  if (run.system) {
    const s = run.system;
    const parts = [
      s.kernel && `kernel ${s.kernel}`,
      s.cpuModel && `CPU ${s.cpuModel}${s.cores ? ` (${s.cores} cores)` : ''}`,
      s.cryptoFlags.length ? `crypto ${s.cryptoFlags.join(' ')}` : '',
      s.memoryBytes !== null ? `memory ${formatBytes(s.memoryBytes)}` : '',
    ].filter(Boolean);
    field('system', parts.join(', ') || '—');
  }
  const st = run.settings;
  const settings = [
    st.preset && `preset ${st.preset}`,
    st.sizeBytes !== undefined && `test size ${formatBytes(st.sizeBytes)}`,
    st.durationSec !== undefined && `${st.durationSec} s per run`,
    st.runs !== undefined && counted(st.runs, 'run'),
    st.warmupSec !== undefined && `${st.warmupSec} s warm-up`,
    st.buffered && 'buffered I/O (page cache)',
    st.sustainedSpanBytes !== undefined && sustainedSettingsText(st),
  ].filter(Boolean);
  if (settings.length) field('settings', settings.join(', '));
  const meta = Object.entries(run.sourceMeta);
  if (meta.length) {
    out.push('', run.source === 'measured' ? 'Metadata' : 'From the source file');
    for (const [key, value] of meta) field(key, value);
  }

  // A test with no rate of its own (a surface: its curve and zones are said below) has no row of dashes here.
  const rated = run.results.filter((r) => r.bytesPerSec !== null || r.iops !== null || r.latencyNs !== null || r.runs.length > 0);
  if (rated.length > 0 || run.results.length === 0)
    out.push('', `Results (throughput in ${describeThroughputUnit(unit)}; median over runs, CV = spread)`);
  if (run.results.length === 0) out.push('  (none)');
  else if (rated.length > 0) {
    const table = formatTable(
      ['TEST', 'PARAMETERS', 'THROUGHPUT', 'IOPS', 'LAT P50', 'LAT MEAN', 'LAT P99', 'CV', 'RUNS', 'FLAGS'],
      rated.map((r) => resultRow(r, unit)),
    );
    out.push(
      ...table
        .trimEnd()
        .split('\n')
        .map((line) => `  ${line}`),
    );
    const named = rated.filter((r) => testTitle(r.test) !== r.test);
    if (named.length) out.push('  ' + named.map((r) => `${r.test} = ${testTitle(r.test)}`).join('; '));
  }
  // A surface's slowest zone and access time are its own lines (surface-text.ts): not twice.
  const figures = figureLines(
    run.results.filter((r) => surfaceOfResult(r) === null),
    unit,
  );
  if (figures.length) out.push('', 'Other figures of the tests', ...figures);
  const surface = surfaceResultLines(run.results, unit);
  if (surface.length) out.push('', `Surface: the zones of the read speed (throughput in ${describeThroughputUnit(unit)})`, ...surface);
  const perGiB = perGiBLines(run.results, unit);
  if (perGiB.length)
    out.push('', `Sustained write: the write speed along the bytes written (throughput in ${describeThroughputUnit(unit)})`, ...perGiB);
  if (run.extras.length) {
    out.push('', 'Other figures (as in the imported file)');
    for (const e of run.extras) {
      const value = e.value === null ? '—' : `${formatNumber(e.value)} ${e.unit}`;
      out.push(`  ${e.name}: ${value}${e.note ? ` (${e.note})` : ''}`);
    }
  }
  const warnings = warningLines(run, { codes: true });
  if (warnings.length) out.push('', 'Warnings', ...warnings.map((line) => `  ${line}`));
  return `${out.join('\n')}\n`;
}

export const showCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        json: { type: 'boolean' },
        unit: { type: 'string' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('show takes one run id: diskdelta show ID');
    const id = parseRunId(positionals[0]!);
    const unit = parseUnitFlag(values.unit);
    return withLibrary(
      'show',
      values.db,
      (library) => {
        const [run] = requireRuns(library, [id]);
        writeOut(values.json ? `${JSON.stringify(run, null, 2)}\n` : formatRun(run!, unit));
        return 0;
      },
      { readOnly: true },
    );
  },
};
