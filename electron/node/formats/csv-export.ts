// CSV export: one row per (run, test), then one row per figure, per point of a series over bytes
// written, per GiB written (the sustained write) and per extra metric, for spreadsheets.
// Units are in the header ("bytes_per_sec [B/s]"); numbers are the raw stored values.
// Cells that a spreadsheet would run as a formula (=, +, -, @ at the start of a text cell,
// e.g. a hostile label) are prefixed with an apostrophe. Control characters in a text cell (ESC,
// C1, bidi overrides: refused on input, but an older library may hold them) are written as the
// text \u001b: CSV has no escape of its own, no spreadsheet needs them, and a CSV shown by
// `cat` or a pager must not drive the terminal. Newlines and tabs stay (quoted).
import { terminalText } from '../../shared/model/display.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { engineText } from '../../shared/model/run-text.ts';
import { sustainedPerSpan, sustainedSeries } from '../../shared/analysis/sustained-write.ts';

const HEADER = [
  'run',
  'label',
  'created_at',
  'source',
  'source_format',
  'engine',
  'device_model',
  'kind',
  'test',
  'rw',
  'block_size [bytes]',
  'queue_depth',
  'threads',
  'read_percent [%]',
  'span [MiB]',
  'bytes_per_sec [B/s]',
  'iops [IO/s]',
  'lat_mean [ns]',
  'lat_p50 [ns]',
  'lat_p90 [ns]',
  'lat_p99 [ns]',
  'lat_p99.9 [ns]',
  'lat_max [ns]',
  'cv [fraction]',
  'under_resolved',
  'value',
  'unit',
  'note',
  'warnings',
];

type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = terminalText(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const VALUE_COLUMN = HEADER.indexOf('value');

/** A row of one value with its unit and note (a figure, an extra): the rate, latency and spread columns stay empty. */
function valueRow(common: Cell[], kind: string, name: string, value: Cell, unit: Cell, note: Cell): Cell[] {
  const head = [...common, kind, name];
  return [...head, ...new Array<Cell>(VALUE_COLUMN - head.length).fill(null), value, unit, note, null];
}

export function exportCsv(runs: RunRecord[]): string {
  const rows: Cell[][] = [HEADER];
  runs.forEach((run, index) => {
    const runKey = run.id ?? index + 1;
    const common: Cell[] = [
      runKey,
      run.label,
      run.createdAt,
      run.source,
      run.sourceFormat,
      engineText(run.engine),
      run.target.device?.model ?? null,
    ];
    for (const r of run.results) {
      const l = r.latencyNs;
      rows.push([
        ...common,
        'test',
        r.test,
        r.params?.rw,
        r.params?.blockSize,
        r.params?.queueDepth,
        r.params?.threads,
        r.params?.readPercent,
        r.params?.spanMiB,
        r.bytesPerSec,
        r.iops,
        l?.mean,
        l?.p50,
        l?.p90,
        l?.p99,
        l?.p999,
        l?.max,
        r.cv,
        r.underResolved,
        null,
        null,
        null,
        r.warnings.map((w) => w.code).join(' '),
      ]);
    }
    for (const r of run.results) {
      for (const f of r.figures ?? []) {
        const what = [f.metric, f.subject].filter(Boolean).join(' ');
        rows.push(valueRow(common, 'figure', r.test, f.value, f.unit, `${what} (${f.provenance}${f.basis ? `: ${f.basis}` : ''})`));
      }
    }
    // A series over bytes written (the sustained write): one row per logged interval.
    for (const r of run.results) {
      for (const p of sustainedSeries(r) ?? []) {
        rows.push(valueRow(common, 'series', r.test, p.bytesPerSec, 'bytes/s', `${p.stream} at ${Math.round(p.bytes)} bytes written`));
      }
    }
    // The same stream's speed per GiB written (analysis/sustained-write.ts): every GiB, a row each.
    for (const r of run.results) {
      for (const { stream, spans } of sustainedPerSpan(r) ?? []) {
        for (const x of spans)
          rows.push(
            valueRow(
              common,
              'per GiB',
              r.test,
              x.bytesPerSec,
              'bytes/s',
              `${stream} from ${x.fromBytes} to ${x.toBytes} bytes written in ${x.seconds.toFixed(3)} s`,
            ),
          );
      }
    }
    for (const e of run.extras) {
      rows.push(valueRow(common, 'extra', e.name, e.value, e.unit, e.note));
    }
  });
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
