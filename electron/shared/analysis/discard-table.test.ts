// The seed's 2×2 of the discard option from stored runs: the shipped 2013 references and the two
// runs discard-cost keeps (bench/trim/discard-runs.ts), read the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import { discardCostRuns } from '../../node/bench/trim/discard-runs.ts';
import type { DiscardCostResult, DiscardSetting } from '../../node/bench/trim/discard-cost.ts';
import { bigFileVerdict, type BigFileCase } from '../../node/bench/trim/discard-bigfile.ts';
import { CHARTS } from '../charts/charts.ts';
import { compareRuns } from './compare.ts';
import { discardTable, discardTableText } from './discard-table.ts';
import type { RunRecord } from '../model/results.ts';

const setting = (
  option: DiscardSetting['option'],
  write: number,
  del: number,
  discards: number,
  countedOn = 'loop loop7',
): DiscardSetting => ({
  option,
  figures: [
    { metric: 'phaseSeconds', subject: 'write', value: write, unit: 's', provenance: 'measured', basis: 'median of 3 runs (a–b)' },
    { metric: 'phaseSeconds', subject: 'delete', value: del, unit: 's', provenance: 'measured', basis: 'median of 3 runs (c–d)' },
  ],
  deleteRuns: [del, del, del],
  discards,
  countedOn,
});

/** The big file's case: the seed's 3 GB, or `bytes` scaled down from it with `scaled` saying why. */
function bigfile(bytes = 3_000_000_000, scaled: string | null = null): BigFileCase {
  const settings = [setting('nodiscard', 9.1, 0.31, 0), setting('discard', 9.2, 0.97, 734)];
  return { askedBytes: 3_000_000_000, bytes, scaled, settings, verdict: bigFileVerdict(settings, bytes) };
}

function measuredPair(over: Partial<DiscardCostResult> = {}): RunRecord[] {
  const r: DiscardCostResult = {
    files: 45_168,
    bytes: 592_000_000,
    settings: [setting('nodiscard', 18.65, 3.64, 0), setting('discard', 18.9, 5.1, 41_200)],
    fstrim: { seconds: 0.42, bytes: 1_200_000_000 },
    verdict: 'online discard costs 1.46 s per 45k-file delete here',
    bigfile: bigfile(),
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
    ['tree-3.9.1', 'bigfile'],
    "the seed's two cases, with the 2013 reference's test ids",
  );
  const subjects = (run: RunRecord, i = 0) => run.results[i]!.figures!.map((f) => `${f.metric}:${f.subject}`);
  assert.deepEqual(subjects(off!), [
    'phaseSeconds:write',
    'phaseSeconds:delete',
    'discardRequests:delete',
    'phaseSeconds:fstrim',
    'trimmedBytes:fstrim',
  ]);
  assert.deepEqual(subjects(on!), ['phaseSeconds:write', 'phaseSeconds:delete', 'discardRequests:delete']);
  for (const run of [off!, on!])
    assert.deepEqual(subjects(run, 1), ['phaseSeconds:write', 'phaseSeconds:delete', 'discardRequests:delete'], 'the big file: no fstrim');
  assert.equal(off!.sourceMeta['big file'], "one file of 3,000 MB, the seed's size");
  assert.match(
    on!.sourceMeta['big file verdict'] ?? '',
    /^online discard costs 0\.66 s per 3,000 MB file delete here \(0\.31 s without, 0\.97 s with\)\. The seed's Intel 525 \(2013\): 1\.22 s per 3 GB file delete/,
  );
  assert.equal(off!.target.stack?.[1]?.details.directIo, true, 'the scratch loop and its direct I/O are in the stack');
  assert.equal(off!.target.stack?.at(-1)?.name, 'vda', 'above the folder’s own stack');
  // A tree of another size is never the seed's test.
  assert.equal(measuredPair({ files: 320, bytes: 4_194_304 })[0]!.results[0]!.test, 'tree-scaled');
});

test('compare of references #4/#5 and a measured pair: the seed’s 2×2 for each, what discard costs, fstrim, in the terminal and the chart registry', async () => {
  const refs = await references();
  const runs = [refs[3]!, refs[4]!, ...measuredPair()];
  const pairs = discardTable(runs);
  assert.deepEqual(
    pairs.map((p) => [p.title.split(' ')[0], p.test]),
    [
      ['#4', 'tree-3.9.1'],
      ['#4', 'bigfile'],
      ['#6', 'tree-3.9.1'],
      ['#6', 'bigfile'],
    ],
    "each pair's two cases, the tree first",
  );
  const [seed, seedBig, here, hereBig] = pairs;
  assert.deepEqual(
    [seedBig!, hereBig!].map((p) => [p.testTitle, ...p.rows.map((r) => r.delete.display), p.cost.delete.display, p.fstrim]),
    [
      ['Big file (3 GB)', '0.430 s', '1.650 s', '+1.220 s (×3.84)', null],
      ['Big file (3 GB)', '0.310 s', '0.970 s', '+0.660 s (×3.13)', null],
    ],
    'the big file measured beside the published one',
  );
  assert.match(hereBig!.notes.join('\n'), /^online discard costs 0\.66 s per 3,000 MB file delete here/);
  assert.ok(!hereBig!.notes.some((n) => n.startsWith('Measured ')), "the run's own sentences are said once, under its tree");
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
    table.groups[2]!.rows.map((r) => [r.title, ...r.cells.map((c) => c.display)]),
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

test('a big file scaled down for want of space: its size in the title, why in the notes and the stored run', () => {
  const why = '/home/u had 480 MB free, so the scratch filesystem was made 456 MB (keeping 268 MB free for you)';
  const scaled = bigfile(402_653_184, `the big file is 403 MB, scaled down from the 3,000 MB asked: ${why}`);
  const runs = measuredPair({ bigfile: scaled });
  assert.equal(runs[0]!.sourceMeta['big file'], 'one file of 403 MB, scaled down from the 3,000 MB asked');
  const shrunk = runs[0]!.results[1]!.warnings.find((w) => w.code === 'bigfile-shrunk');
  assert.match(shrunk?.message ?? '', /scaled down from the 3,000 MB asked: \/home\/u had 480 MB free/);
  const big = discardTable(runs)[1]!;
  assert.equal(big.testTitle, 'Big file: one file of 403 MB, scaled down from the 3,000 MB asked');
  assert.match(big.notes.join('\n'), /that was 3,000 MB, this 403 MB: a different delete, set beside it, not the same/);
  assert.match(
    discardTableText(discardTable(runs)),
    /#6 discard-cost on vda — Big file: one file of 403 MB, scaled down from the 3,000 MB asked\n +mount option +write \+ sync +delete \+ sync\n(.*\n){4}.*scaled down from the 3,000 MB asked: \/home\/u had 480 MB free/,
  );
});
