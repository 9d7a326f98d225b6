// Lab (root, loop, ext4, fstrim): the seed's second TRIM case in `discard-cost`, on a folder of
// a loop-mounted ext4 (fixtures/scratch-ext4.ts) as a user runs it. The big file is written and
// deleted under each mount option and timed; the scratch loop's discard counters are the truth
// that the option was in force (none without, some with). On a filesystem with too little room
// for the size asked, the file is scaled down and the run says to what and why, in its result,
// the runs it keeps and the table printed.
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { discardTable, discardTableText } from '../../../shared/analysis/discard-table.ts';
import { runDiscardCost } from './discard-cost.ts';
import { discardCostRuns } from './discard-runs.ts';
import { freeBytes, keptFree } from './discard-bigfile.ts';
import { folderIn, scratchExt4, scratchUnavailable } from './fixtures/scratch-ext4.ts';

const TREE = { files: 200, bytes: 2_000_000, runs: 2 };
const context = {
  target: { path: '/lab', kind: 'folder' as const, stack: [] },
  system: { kernel: 'lab', cpuModel: null, cores: 2, cryptoFlags: [], memoryBytes: null },
  version: '0.0.0',
  createdAt: '2026-12-05T00:00:00.000Z',
};

describe('discard-cost: the big file', { skip: scratchUnavailable ?? false, timeout: 300_000 }, () => {
  it('is written and deleted with and without discard, each delete timed; discards reach the loop only with the option', async (t) => {
    const disk = scratchExt4(t, 1024 * 2 ** 20);
    disk.mount('nodiscard');
    const folder = folderIn(disk);
    const big = 64 * 2 ** 20;
    const r = await runDiscardCost(folder, { ...TREE, bigfileBytes: big });
    assert.deepEqual(readdirSync(folder), [], 'nothing left in the folder');
    assert.equal(r.bigfile.bytes, big, 'the size asked, written as asked');
    assert.equal(r.bigfile.scaled, null);
    const [off, on] = r.bigfile.settings;
    assert.deepEqual([off?.option, on?.option], ['nodiscard', 'discard']);
    for (const s of [off!, on!]) {
      const del = s.figures.find((f) => f.subject === 'delete');
      console.log(
        `# big file ${s.option}: delete + syncfs ${del?.value?.toFixed(3)} s (passes ${s.deleteRuns.map((x) => x.toFixed(3)).join(', ')}), ${s.discards} discards reached ${s.countedOn}`,
      );
      assert.equal(s.deleteRuns.length, TREE.runs, `${s.option}: one delete per timed pass`);
      assert.ok(del?.value && del.value > 0, `${s.option}: the delete was timed`);
      assert.match(del.basis ?? '', /one file of 67 MB/);
    }
    assert.equal(off!.discards, 0, 'without discard no discard reached the loop');
    assert.ok((on!.discards ?? 0) > 0, `with discard ${on!.discards} discards reached the loop`);
    assert.match(r.bigfile.verdict, /per 67 MB file delete here .*The seed's Intel 525 \(2013\): 1\.22 s per 3 GB file delete/);
    // Kept beside the tree, in the same two runs, as the 2013 reference's 'bigfile' test.
    const runs = discardCostRuns(r, context);
    assert.deepEqual(
      runs.map((run) => run.results.map((x) => x.test)),
      [
        ['tree-scaled', 'bigfile'],
        ['tree-scaled', 'bigfile'],
      ],
    );
    const table = discardTable(runs.map((run, i) => ({ ...run, id: i + 1 })));
    assert.deepEqual(
      table.map((p) => p.test),
      ['tree-scaled', 'bigfile'],
    );
    assert.equal(table[1]!.rows[0]!.delete.value, off!.figures.find((f) => f.subject === 'delete')!.value);
  });

  it('on a filesystem too small for the size asked: scaled down, and the size and the reason said', async (t) => {
    const disk = scratchExt4(t, 640 * 2 ** 20);
    disk.mount('nodiscard');
    const folder = folderIn(disk);
    const free = await freeBytes(folder);
    const r = await runDiscardCost(folder, { ...TREE, runs: 1 });
    console.log(`# ${free} B free; ${r.bigfile.scaled}`);
    assert.equal(r.bigfile.askedBytes, 3_000_000_000, "the seed's 3 GB by default");
    assert.ok(r.bigfile.bytes < free - keptFree(free), `${r.bigfile.bytes} B written, within the room left`);
    assert.ok(r.bigfile.bytes >= 16 * 2 ** 20);
    const mb = (b: number) => `${Math.round(b / 1e6).toLocaleString('en-US')} MB`;
    assert.equal(
      r.bigfile.scaled,
      `the big file is ${mb(r.bigfile.bytes)}, scaled down from the 3,000 MB asked: ${folder} had ${mb(free)} free, so the scratch filesystem was made ${/made (\S+ MB)/.exec(r.bigfile.scaled ?? '')?.[1]} (keeping 268 MB free for you)`,
    );
    for (const s of r.bigfile.settings) assert.ok((s.figures.find((f) => f.subject === 'delete')?.value ?? 0) > 0, `${s.option} timed`);
    const runs = discardCostRuns(r, context);
    for (const run of runs) {
      assert.equal(run.sourceMeta['big file'], `one file of ${mb(r.bigfile.bytes)}, scaled down from the 3,000 MB asked`);
      assert.ok(run.results[1]!.warnings.some((w) => w.code === 'bigfile-shrunk' && w.message === r.bigfile.scaled));
    }
    const text = discardTableText(discardTable(runs.map((run, i) => ({ ...run, id: i + 1 }))));
    assert.ok(text.includes(`Big file: one file of ${mb(r.bigfile.bytes)}, scaled down from the 3,000 MB asked`), text);
    assert.ok(text.includes(`${r.bigfile.scaled}.`), text);
    assert.deepEqual(readdirSync(folder), [], 'nothing left in the folder');
  });
});
