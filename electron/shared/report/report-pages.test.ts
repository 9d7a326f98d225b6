// The report of an upgrade assessment, read as a person gets it (#39 items 2 and 6): two disks
// (a throttled loop as the HDD, a plain loop as the SSD), the SSD under dm-crypt, a discard-cost
// experiment and a working-set scan. The runs are built here with the figures and warnings such
// runs carry (the HDD's size-below-ram on every test, a busy machine during the scan); the
// report is printed the way the CLI prints it (Chromium through playwright-core) and its pages
// counted by pdfinfo.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chromiumPrinter, findChromium } from '../../node/report/chromium-printer.ts';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import { resultWithoutRuns } from '../../node/formats/common.ts';
import { PRESETS } from '../catalog/presets.ts';
import { rateTestParams } from '../model/catalog.ts';
import type { RunRecord, TestResult, Warning } from '../model/results.ts';
import { WINDOW_DAYS, WORKING_SET_TEST, workingSetFigures } from '../analysis/working-set.ts';
import type { Assessment } from '../model/assessment.ts';
import { buildReport } from './report-model.ts';
import { buildCompareView } from '../charts/compare-view.ts';
import { renderReportHtml } from './report-html.ts';
import { forecastCandidates, type Forecast } from '../analysis/candidate-forecast.ts';
import { candidateFromSpec } from '../analysis/candidate.ts';
import { currentDiskRun, workloadRun } from '../analysis/forecast-fixtures.ts';
import { EXAMPLE_CANDIDATE, MAX_CANDIDATES } from '../model/candidate.ts';

const skip = !findChromium()
  ? 'no Chromium here (Debian package "chromium"): the PDF cannot be printed'
  : spawnSync('pdfinfo', ['-v']).error !== undefined
    ? 'no pdfinfo here (Debian package "poppler-utils"): the pages cannot be counted'
    : false;

const GiB = 2 ** 30;
const at = new Date('2026-12-05T10:00:00Z');

/** A rate result as the orchestrator stores it: median, spread, runs; bytes/s from IOPS × block. */
function rate(test: string, iops: number, warnings: Warning[] = []): TestResult {
  const params = rateTestParams(test);
  const bytesPerSec = params ? iops * params.blockSize : null;
  return {
    ...resultWithoutRuns({ test, params, bytesPerSec, iops, warnings }),
    cv: 0.02,
  };
}

/** A disk measured with the full preset: every test, its IOPS from the disk's speeds. */
function disk(label: string, seqMBps: number, randIops: number, extra: Partial<RunRecord> = {}, testWarnings: Warning[] = []): RunRecord {
  const results = PRESETS.full.tests.map((test) => {
    const p = rateTestParams(test);
    const sequential = (p?.blockSize ?? 0) >= 2 ** 17;
    const iops = test === 'seeks' ? randIops : sequential ? (seqMBps * 1e6) / p!.blockSize : randIops * (p!.queueDepth > 1 ? 3 : 1);
    return rate(test, iops, testWarnings);
  });
  return {
    label,
    notes: '',
    createdAt: '2026-12-05T09:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt/x', kind: 'folder' },
    system: { kernel: '6.1.0-28-amd64', cpuModel: 'AMD EPYC', cores: 2, threads: 2, cryptoFlags: ['aes'], memoryBytes: 24 * GiB },
    settings: { preset: 'full', sizeBytes: GiB, durationSec: 0.2, warmupSec: 0.25, runs: 5, precision: 0.02 },
    engine: { name: 'diskdelta', version: '0.1.0', ioEngine: 'aio' },
    results,
    extras: [],
    warnings: [],
    ...extra,
  };
}

function scan(): RunRecord {
  const summary = {
    totalBytes: 84e9,
    files: 412_000,
    windows: WINDOW_DAYS.map((days) => ({ days, touchedBytes: Math.min(84e9, days * 0.4e9), writtenBytes: days * 0.1e9 })),
    folders: ['Documents', 'src', '.cache', 'Music', 'Pictures'].map((name, i) => ({ name, bytes: (30 - i * 5) * 1e9, recentBytes: 1e9 })),
    readsSeen: true,
  };
  return {
    ...disk('working set of /home', 1, 1),
    target: { path: '/home', kind: 'folder' },
    settings: {},
    results: [
      resultWithoutRuns({
        test: WORKING_SET_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        warnings: [{ code: 'machine-busy', message: 'other processes used 1.4 CPUs during the test: its figures may be lower' }],
        figures: workingSetFigures(summary, 'scan'),
      }),
    ],
  };
}

const ramWarning = (): Warning => ({ code: 'size-below-ram', message: 'the test file (1 GiB) is smaller than the RAM (24 GiB)' });

async function library(): Promise<{ records: RunRecord[]; assessment: Assessment }> {
  const discard = (await loadReferenceRuns()).filter((r) => r.sourceMeta['mount option'] !== undefined);
  assert.equal(discard.length, 2, 'the 2013 discard-cost references');
  const crypt = disk('new SSD + dm-crypt', 310, 9000, {
    target: { path: '/mnt/c', kind: 'folder', stack: [{ kind: 'dm-crypt', name: 'dm-0', details: {} }] } as RunRecord['target'],
  });
  // Ids as the library gives them: the assessment's fields name runs by id.
  const records = [
    disk('HDD full', 40, 150, {}, [ramWarning()]),
    disk('new SSD', 520, 12000, {}, [ramWarning()]),
    crypt,
    ...discard,
    scan(),
  ].map((run, i) => ({ ...run, id: i + 1 }));
  const assessment: Assessment = {
    id: 1,
    label: 'laptop upgrade',
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    before: 1,
    after: 2,
    encrypted: 3,
    discardOff: 4,
    discardOn: 5,
    workingSet: 6,
    emptied: {},
    notes: '',
  };
  return { records, assessment };
}

/** The most candidates a report holds, beside a disk on SATA 2 with its workloads: the widest Candidates section. */
function forecast(): Forecast {
  const candidates = Array.from({ length: MAX_CANDIDATES }, (_, i) =>
    candidateFromSpec({ ...EXAMPLE_CANDIDATE, name: `Candidate SSD ${i + 1} 1 TB` }, `ssd-${i + 1}.json`),
  );
  return forecastCandidates({
    current: currentDiskRun(),
    candidates,
    limits: { link: { ceilingBytesPerSec: 300e6, description: 'SATA 3.0 Gb/s, 300 MB/s', transport: 'sata' }, cipher: null },
    workloads: [workloadRun()],
    writeSamples: [],
    workingSet: null,
  });
}

describe('the assessment report, by kind', () => {
  it('shows no row, column or bar for a test a run does not have, and names runs by role', async () => {
    const { records, assessment } = await library();
    const doc = buildReport(records, { generatedAt: at, assessment });
    const html = renderReportHtml(doc);
    assert.doesNotMatch(html, /not in this run/);
    assert.deepEqual(doc.figures.runIndexes, [0, 1, 2], 'the disks alone in the figures');
    assert.ok(
      doc.trimCharts.some((c) => c.type === 'discard-table'),
      'the experiment in the TRIM section',
    );
    for (const chart of doc.charts)
      if (chart.shape === 'bars')
        for (const c of chart.categories) for (const b of c.bars) assert.ok(b.runIndex <= 2, `${chart.id}: bar of run #${b.runIndex + 1}`);
    assert.deepEqual(
      doc.runs.map((r) => r.role),
      ['Before', 'After', 'Under dm-crypt', 'TRIM: without discard', 'TRIM: with discard', 'Size'],
    );
    const runLine = /<p class="run-line">(.*?)<\/p>/.exec(html)?.[1] ?? '';
    assert.match(runLine, /<strong>Before: <\/strong>.*HDD full · <strong>After: <\/strong>/);
    assert.doesNotMatch(runLine, /→/, 'the runs are not chained as stages');
  });

  it('says a warning once where it applies: size-below-ram on reads only, one line; no machine-busy on a scan', async () => {
    const { records, assessment } = await library();
    records[5]!.results[0]!.warnings.push(ramWarning());
    const doc = buildReport(records, { generatedAt: at, assessment });
    const ram = doc.warnings.filter((w) => w.code === 'size-below-ram');
    assert.equal(ram.length, 1, 'one line for all the tests that share it');
    assert.deepEqual(ram[0]!.runIndexes, [0, 1]);
    // Reads only: the page cache serves reads; a write ends with fsync inside its window.
    assert.deepEqual(ram[0]!.tests, [
      'seq1m-q8t1-read',
      'seq1m-q1t1-read',
      'rnd4k-q32t1-read',
      'rnd4k-q1t1-read',
      'seeks',
      'mix70-rnd4k-q8t1',
    ]);
    assert.match(ram[0]!.where, /^on 6 tests \(seq1m-q8t1-read, /);
    assert.ok(
      !doc.warnings.some((w) => w.code === 'machine-busy' && w.runIndexes.includes(5)),
      'a scan counts bytes: a busy CPU cannot lower them',
    );
    assert.equal(doc.warningCount, '1 warning on 2 runs');
    const html = renderReportHtml(doc);
    const text = html.replace(/<[^>]*>/g, ' '); // what a reader sees: not the marks' tooltips
    assert.equal(text.match(/size-below-ram/g)?.length, 1, 'said once in the whole report');
  });

  it("Compare's warnings: the same groups, per run, a scan without machine-busy", async () => {
    const { records } = await library();
    const view = buildCompareView(records, 'MB');
    assert.deepEqual(
      view.warnings[0]!.warnings.map((w) => [w.code, w.test]),
      [['size-below-ram', '6 tests (seq1m-q8t1-read, seq1m-q1t1-read, rnd4k-q32t1-read, rnd4k-q1t1-read, seeks, mix70-rnd4k-q8t1)']],
    );
    assert.deepEqual(view.warnings[5]!.warnings, [], 'the scan: a busy CPU cannot lower a byte count');
  });

  it("has a Candidates section with the Candidates page's table when the assessment has candidates", async () => {
    const { records, assessment } = await library();
    const html = renderReportHtml(buildReport(records, { generatedAt: at, assessment, forecast: forecast() }));
    assert.match(html, /data-testid="report-candidates"/);
    assert.match(html, /Candidate SSD 4 1 TB/);
    assert.match(html, /bus limit/);
    assert.match(html, /model accuracy, measured in the lab/);
    assert.doesNotMatch(renderReportHtml(buildReport(records, { generatedAt: at, assessment })), /data-testid="report-candidates"/);
  });

  it('fits in 6 pages when printed; the most candidates add one page at most', { skip }, async (t) => {
    const { records, assessment } = await library();
    const dir = mkdtempSync(join(tmpdir(), 'dd-report-pages-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const pagesOf = async (html: string, keep: string | undefined): Promise<number> => {
      const pdf = join(dir, 'r.pdf');
      const bytes = await chromiumPrinter().print(html);
      writeFileSync(pdf, bytes);
      if (keep) writeFileSync(keep, bytes);
      const info = spawnSync('pdfinfo', [pdf], { encoding: 'utf8', timeout: 30_000 });
      return Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
    };
    const plain = await pagesOf(renderReportHtml(buildReport(records, { generatedAt: at, assessment })), process.env.DISKDELTA_KEEP_REPORT);
    assert.ok(plain >= 1 && plain <= 6, `${plain} pages`);
    // Four candidates side by side, each capped by the bus, with the workloads: the widest section, a page of its own at most.
    const keep = process.env.DISKDELTA_KEEP_REPORT?.replace(/\.pdf$/, '-candidates.pdf');
    const withCandidates = await pagesOf(
      renderReportHtml(buildReport(records, { generatedAt: at, assessment, forecast: forecast() })),
      keep,
    );
    assert.ok(withCandidates <= plain + 1, `${withCandidates} pages with candidates, ${plain} without`);
  });
});
