// A working-set run told from its kept figures: the summary comes back whole from the figures
// (what the library keeps), and the report's section says the verdict against the SSD among the
// report's other runs, and the change from the first scan to the last.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDiskSize, summarizeScan, summaryOfResult, workingSetFigures, type ScannedFolder } from './working-set.ts';
import { workingSetSummary } from './summary.ts';
import { compareRuns } from './compare.ts';
import { buildReport } from '../report/report-model.ts';
import { resultWithoutRuns } from '../../node/formats/common.ts';
import { syntheticRun } from '../../node/store/fixtures/synthetic-run.ts';
import type { RunRecord } from '../model/results.ts';

const GB = 1e9;
const folder = (name: string, touched: Array<[number, number]>, written: Array<[number, number]> = touched): ScannedFolder => ({
  name,
  files: touched.length,
  apparentBytes: 0,
  allocatedBytes: touched.reduce((n, [, b]) => n + b, 0),
  touched,
  written,
});

function scanRun(n: number, folders: ScannedFolder[]): RunRecord {
  const run = syntheticRun(n);
  run.label = `working set ${n}`;
  run.results = [
    resultWithoutRuns({
      test: 'working-set',
      params: null,
      bytesPerSec: null,
      iops: null,
      figures: workingSetFigures(summarizeScan(folders, []), 'test'),
    }),
  ];
  return run;
}

describe('working-set analysis', () => {
  it("a kept run's figures give back the summary the scan made", () => {
    const folders = [
      folder('Music', [
        [0, 3 * GB],
        [40, 20 * GB],
        [399, 100 * GB],
      ]),
      folder('', [[2, GB]], [[200, GB]]),
    ];
    const summary = summarizeScan(folders, [{ code: 'atime-noatime', message: '' }]);
    const back = summaryOfResult({
      test: 'working-set',
      figures: workingSetFigures(summary, 'b'),
      warnings: [{ code: 'atime-noatime', message: '' }],
    });
    assert.deepEqual(back, { ...summary, folders: summary.folders.map((f) => ({ ...f, name: f.name || '(files in the folder itself)' })) });
    assert.deepEqual(
      summary.windows.map((w) => [w.days, w.touchedBytes / GB, w.writtenBytes / GB]),
      [
        [1, 3, 3],
        [7, 4, 3],
        [30, 4, 3],
        [90, 24, 23],
        [365, 24, 24],
      ],
    );
    assert.equal(summary.readsSeen, false);
  });

  it("the report's section: the verdict against the report's SSD, and this scan against the last", () => {
    const older = scanRun(1, [
      folder('a', [
        [10, 50 * GB],
        [500, 200 * GB],
      ]),
    ]);
    const newer = scanRun(2, [
      folder('a', [
        [1, 84 * GB],
        [500, 310 * GB],
      ]),
    ]);
    const ssd = syntheticRun(3);
    ssd.target.device = { ...ssd.target.device!, model: 'Intel 525', rotational: false, class: 'SATA SSD', sizeBytes: 120 * GB };
    const records = [older, newer, ssd];
    const section = workingSetSummary({ records, comparison: compareRuns(records) });
    assert.equal(section?.title, 'How big an SSD');
    assert.deepEqual(section?.paragraphs, [
      '#1 working set 1 (against the SSD of #3, Intel 525): Your 90-day working set is 50 GB: the 120 GB SSD holds it with 70 GB to spare; what you have not touched in a year, 200 GB, can live on the old disk or the network.',
      '#2 working set 2 (against the SSD of #3, Intel 525): Your 90-day working set is 84 GB: the 120 GB SSD holds it with 36 GB to spare; what you have not touched in a year, 310 GB, can live on the old disk or the network.',
      'From #1 to #2 the 90-day working set grew by 34 GB: 50 GB → 84 GB; everything stored 250 GB → 394 GB.',
    ]);
    const doc = buildReport(records, { generatedAt: new Date('2026-12-01T00:00:00Z') });
    assert.deepEqual(
      doc.workingSets.map((w) => w.runIndex),
      [0, 1],
    );
    assert.ok(doc.summary.some((s) => s.id === 'working-set'));
    assert.equal(workingSetSummary({ records: [ssd], comparison: compareRuns([ssd]) }), null, 'no scan, no section');
  });

  it('sizes as drives are sold: decimal units', () => {
    assert.deepEqual([0, 999, 1000, 84e9, 1.25e12, 36.4e9].map(formatDiskSize), ['0 B', '999 B', '1 kB', '84 GB', '1.25 TB', '36.4 GB']);
  });
});
