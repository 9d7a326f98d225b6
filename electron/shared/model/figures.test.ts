// Results that are not a rate per test (seconds per phase, cipher ceilings, forecasts) fit the
// one result model: stored in SQLite, exported and imported, compared, and an estimated figure
// says so wherever it is shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../analysis/compare.ts';
import { formatComparisonText } from '../../cli/compare-text.ts';
import { exportCsv } from '../../node/formats/csv-export.ts';
import { exportJson } from '../../node/formats/diskdelta-json.ts';
import { parseImport } from '../../node/formats/index.ts';
import { openLibrary } from '../../node/store/library.ts';
import type { RunRecord, TestResult } from './results.ts';
import { runRecordSchema } from './schemas.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli-in-process.ts';

function figuresResult(test: string, unpackSec: number, cipher: number, forecast: number): TestResult {
  return {
    test,
    params: null,
    bytesPerSec: null,
    iops: null,
    latencyNs: null,
    best: null,
    cv: null,
    runs: [],
    histogram: [],
    cpu: null,
    underResolved: false,
    warnings: [],
    figures: [
      { metric: 'phaseSeconds', subject: 'unpack', value: unpackSec, unit: 's', provenance: 'measured' },
      { metric: 'cipherBytesPerSec', subject: 'aes-xts-plain64', value: cipher, unit: 'bytes/s', provenance: 'measured' },
      {
        metric: 'forecastBytesPerSec',
        subject: 'seq write under dm-crypt',
        value: forecast,
        unit: 'bytes/s',
        provenance: 'estimated',
        basis: 'min(cipher ceiling, measured write)',
      },
    ],
  };
}

function run(label: string, unpackSec: number, cipher: number, forecast: number): RunRecord {
  return {
    label,
    notes: '',
    createdAt: '2026-11-30T07:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt/x', kind: 'folder' },
    settings: {},
    engine: { name: 'diskdelta', version: '0.1.0' },
    results: [figuresResult('workload-kernel-tree', unpackSec, cipher, forecast)],
    extras: [],
    warnings: [],
  };
}

describe('figures of kinds that are not rates', () => {
  it('pass the strict schema and survive the library unchanged', () => {
    const a = run('SSD', 12.5, 2.1e9, 480e6);
    assert.ok(runRecordSchema.safeParse(a).success);
    const lib = openLibrary({ dbPath: ':memory:' });
    const id = lib.saveRun(a);
    assert.deepEqual(lib.getRun(id), { ...a, id });
    lib.deleteRun(id);
    lib.close();
  });

  it('a figure with an unknown provenance or unit is refused', () => {
    const bad = run('x', 1, 1, 1);
    (bad.results[0]!.figures![0] as { provenance: string }).provenance = 'guessed';
    assert.ok(!runRecordSchema.safeParse(bad).success);
    const unit = run('x', 1, 1, 1);
    (unit.results[0]!.figures![0] as { unit: string }).unit = 'furlongs';
    assert.ok(!runRecordSchema.safeParse(unit).success);
  });

  it('survive JSON export and import, and CSV export names their provenance', () => {
    const a = run('SSD', 12.5, 2.1e9, 480e6);
    const [back] = parseImport(exportJson([a]), 'figures.json');
    assert.deepEqual(back?.results[0]?.figures, a.results[0]?.figures);
    const csv = exportCsv([a]);
    assert.match(
      csv,
      /,figure,workload-kernel-tree,.*,480000000,bytes\/s,"forecastBytesPerSec seq write under dm-crypt \(estimated: min\(cipher ceiling, measured write\)\)"/,
    );
    assert.match(csv, /,figure,workload-kernel-tree,.*,12\.5,s,phaseSeconds unpack \(measured\)/);
  });

  it('compare: seconds are better lower, ceilings higher, and estimates are marked everywhere', () => {
    const c = compareRuns([run('HDD', 40, 2e9, 100e6), run('SSD', 10, 2e9, 400e6)]);
    const unpack = c.rows.find((r) => r.metric === 'phaseSeconds:unpack')!;
    assert.equal(unpack.direction, 'lower');
    assert.equal(unpack.cells[1]?.vsBaseline?.verdict, 'better');
    assert.equal(unpack.cells[1]?.display, '10 s');
    const forecast = c.rows.find((r) => r.metric.startsWith('forecastBytesPerSec'))!;
    assert.equal(forecast.kind, 'figure');
    assert.ok(
      forecast.cells.every((cell) => cell.estimated && cell.display.endsWith('(estimated)')),
      JSON.stringify(forecast.cells),
    );
    assert.ok(unpack.cells.every((cell) => !cell.estimated));
    assert.match(formatComparisonText(c), /400(\.0)? MB\/s \(estimated\)/);
  });

  it('diskdelta show lists them with units, the estimate marked', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-figures-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'library.sqlite');
    const lib = openLibrary({ dbPath });
    const id = lib.saveRun(run('SSD', 12.5, 2.1e9, 480e6));
    lib.close();
    const out = await runCli(['show', String(id), '--db', dbPath]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /workload-kernel-tree: seconds · unpack: 12\.50? s\n/);
    assert.match(
      out.stdout,
      /forecast throughput · seq write under dm-crypt: 480(\.0)? MB\/s \(estimated\) — min\(cipher ceiling, measured write\)/,
    );
  });
});
