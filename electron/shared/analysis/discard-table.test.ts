// The seed's 2×2 of the discard option from stored runs: the shipped 2013 references and the two
// runs discard-cost keeps (bench/trim/discard-runs.ts), read the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import { discardCostRuns } from '../../node/bench/trim/discard-runs.ts';
import type { DiscardCostResult, DiscardSetting } from '../../node/bench/trim/discard-cost.ts';
import { CHARTS } from '../charts/charts.ts';
import { compareRuns } from './compare.ts';
import { discardTable, discardTableText } from './discard-table.ts';
import type { RunRecord } from '../model/results.ts';

const setting = (option: DiscardSetting['option'], write: number, del: number, discards: number): DiscardSetting => ({
  option,
  figures: [
    { metric: 'phaseSeconds', subject: 'write', value: write, unit: 's', provenance: 'measured', basis: 'median of 3 runs (a–b)' },
    { metric: 'phaseSeconds', subject: 'delete', value: del, unit: 's', provenance: 'measured', basis: 'median of 3 runs (c–d)' },
  ],
  deleteRuns: [del, del, del],
  discards,
  countedOn: 'loop loop7',
});

function measuredPair(over: Partial<DiscardCostResult> = {}): RunRecord[] {
  const r: DiscardCostResult = {
    files: 45_168,
    bytes: 592_000_000,
    settings: [setting('nodiscard', 18.65, 3.64, 0), setting('discard', 18.9, 5.1, 41_200)],
    fstrim: { seconds: 0.42, bytes: 1_200_000_000 },
    verdict: 'online discard costs 1.46 s per 45k-file delete here',
    cleaned: [],
    where: { mode: 'scratch', device: '/dev/loop7', image: '/home/u/.diskdelta-1-discard-cost.tmp', directIo: true },
    warnings: [],
    ...over,
  };
  return discardCostRuns(r, {
    target: { path: '/home/u', kind: 'folder', device: { name: 'vda' } as never, stack: [{ kind: 'disk', name: 'vda', details: {} }] },
    system: { kernel: '6.1', cpuModel: null, cores: 2, cryptoFlags: [], memoryBytes: null },
    version: '0.0.0',
    createdAt: '2026-12-01T10:00:00.000Z',
  }).map((run, i) => ({ ...run, id: 6 + i }));
}

const references = async () => (await loadReferenceRuns()).map((run, i) => ({ ...run, id: i + 1 }));

test('discard-cost keeps two runs shaped like the 2013 references: the seed’s tree, its phases, the mount option, fstrim with the run without', () => {
  const [off, on] = measuredPair();
  assert.deepEqual([off!.sourceMeta['mount option'], on!.sourceMeta['mount option']], ['no discard', 'discard']);
  assert.deepEqual(
    off!.results.map((r) => r.test),
    ['tree-3.9.1'],
  );
  const subjects = (run: RunRecord) => run.results[0]!.figures!.map((f) => `${f.metric}:${f.subject}`);
  assert.deepEqual(subjects(off!), [
    'phaseSeconds:write',
    'phaseSeconds:delete',
    'discardRequests:delete',
    'phaseSeconds:fstrim',
    'trimmedBytes:fstrim',
  ]);
  assert.deepEqual(subjects(on!), ['phaseSeconds:write', 'phaseSeconds:delete', 'discardRequests:delete']);
  assert.equal(off!.target.stack?.[1]?.details.directIo, true, 'the scratch loop and its direct I/O are in the stack');
  assert.equal(off!.target.stack?.at(-1)?.name, 'vda', 'above the folder’s own stack');
  // A tree of another size is never the seed's test.
  assert.equal(measuredPair({ files: 320, bytes: 4_194_304 })[0]!.results[0]!.test, 'tree-scaled');
});

test('compare of references #4/#5 and a measured pair: the seed’s 2×2 for each, what discard costs, fstrim, in the terminal and the chart registry', async () => {
  const refs = await references();
  const runs = [refs[3]!, refs[4]!, ...measuredPair()];
  const pairs = discardTable(runs);
  assert.equal(pairs.length, 2);
  const [seed, here] = pairs;
  assert.equal(seed!.title, '#4 Intel 525, ext4 on LVM on LUKS (2013) (reference)');
  assert.deepEqual(
    seed!.rows.map((r) => [r.option, r.extract.display, r.delete.display]),
    [
      ['no discard', '7.368 s', '0.710 s'],
      ['discard', '7.373 s', '2.697 s'],
    ],
  );
  assert.deepEqual([seed!.cost.extract.display, seed!.cost.delete.display], ['+0.005 s (×1.00)', '+1.987 s (×3.80)']);
  assert.equal(seed!.fstrim, null, 'the seed gave fstrim in words only');
  assert.deepEqual(
    [here!.cost.delete.display, here!.fstrim?.seconds.display, here!.fstrim?.trimmed.display],
    ['+1.460 s (×1.40)', '0.420 s', '1.12 GiB'],
  );
  const text = discardTableText(pairs);
  assert.match(
    text,
    /#6 discard-cost on vda — Source tree \(Linux 3\.9\.1 size\)\n +mount option +extract \+ sync +delete \+ sync\n +no discard +18\.650 s +3\.640 s\n +discard +18\.900 s +5\.100 s\n +discard costs +\+0\.250 s \(×1\.01\) +\+1\.460 s \(×1\.40\)\n +fstrim afterwards: 0\.420 s, 1\.12 GiB trimmed/,
  );
  assert.match(text, /Measured a scratch ext4 on \/dev\/loop7 \(direct I\/O\)/);
  // Rows of the same test line up in the generic comparison too: the measured tree beside the seed's.
  const rows = compareRuns(runs).rows.filter((r) => r.test === 'tree-3.9.1' && r.metric === 'phaseSeconds:delete');
  assert.deepEqual(
    rows[0]!.cells.map((c) => c.value),
    [0.71, 2.697, 3.64, 5.1],
  );
  const charts = CHARTS.build({ records: runs, comparison: compareRuns(runs), unit: 'MB' }, 'report');
  const table = charts.find((c) => c.type === 'discard-table');
  assert.ok(table && table.shape === 'table', 'the report draws the 2×2');
  assert.deepEqual(
    table.groups[1]!.rows.map((r) => [r.title, ...r.cells.map((c) => c.display)]),
    [
      ['no discard', '18.650 s', '3.640 s'],
      ['discard', '18.900 s', '5.100 s'],
      ['discard costs', '+0.250 s (×1.01)', '+1.460 s (×1.40)'],
    ],
  );
});

test('runs that are not of the discard experiment get no table; a lone half says what is missing', async () => {
  const refs = await references();
  assert.deepEqual(discardTable(refs.slice(0, 3)), []);
  const charts = CHARTS.build({ records: refs.slice(0, 3), comparison: compareRuns(refs.slice(0, 3)), unit: 'MB' }, 'app');
  assert.ok(!charts.some((c) => c.type === 'discard-table'));
  const [lone] = discardTable([refs[0]!, refs[4]!]);
  assert.equal(lone!.rows.length, 1);
  assert.equal(lone!.cost.delete.display, '— (needs both settings)');
  assert.match(lone!.notes.at(-1)!, /Only the run with discard is compared: add its other half for the cost\./);
});

test('a buffered scratch loop and counters on a shared disk are said beside the table', () => {
  const warned = measuredPair({
    warnings: [{ code: 'shared-counters', message: 'the discard requests were counted on disk vda, which other programs use too' }],
  });
  assert.match(discardTableText(discardTable(warned)), /the discard requests were counted on disk vda, which other programs use too\./);
  assert.equal(warned[0]!.warnings[0]!.code, 'shared-counters');
});
