// Lab (root, loop, ext4): `discard-cost` on a folder of a loop-mounted ext4, as a user runs it,
// through the CLI: its scratch loop is attached with direct I/O (losetup --list shows DIO 1
// while it runs), and the two runs it keeps are set by `compare` beside the shipped 2013
// references in the seed's 2×2 shape.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../cli/run-cli-in-process.ts';
import { runDiscardCost } from './discard-cost.ts';
import { folderIn, scratchExt4, scratchUnavailable } from './fixtures/scratch-ext4.ts';

/** `losetup --list` as JSON: name, direct I/O, backing file of every loop device. */
function loops(): Array<{ name: string; dio: boolean | string; 'back-file': string }> {
  const r = spawnSync('losetup', ['--list', '--json', '-O', 'NAME,DIO,BACK-FILE'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim() ? (JSON.parse(r.stdout) as { loopdevices: ReturnType<typeof loops> }).loopdevices : [];
}

describe('discard-cost on a loop-mounted ext4', { skip: scratchUnavailable ?? false }, () => {
  it('its scratch loop does direct I/O: losetup --list shows DIO 1 for it while the run measures', async (t) => {
    const disk = scratchExt4(t);
    disk.mount('nodiscard');
    const folder = folderIn(disk);
    const seen: Array<ReturnType<typeof loops>[number] | undefined> = [];
    const r = await runDiscardCost(folder, {
      files: 500,
      bytes: 4_000_000,
      runs: 1,
      onScratch: (scratch) => void seen.push(loops().find((l) => l.name === scratch.device)),
    });
    assert.equal(seen.length, 1, 'the run said when its scratch loop was attached');
    const during = seen[0];
    assert.ok(during, 'losetup --list lists the scratch loop during the run');
    assert.match(during['back-file'], /\.diskdelta-\d+-discard-cost\.tmp$/);
    assert.ok(during.dio === true || during.dio === '1', `DIO of the scratch loop: ${JSON.stringify(during.dio)}`);
    assert.equal(r.where.mode === 'scratch' && r.where.directIo, true);
    assert.deepEqual(r.warnings, [], 'no buffered-io warning with direct I/O');
    assert.ok(!loops().some((l) => l.name === during.name && l['back-file'] === during['back-file']), 'the scratch loop is detached after');
  });

  it('the CLI keeps two runs that compare sets beside references #4/#5 in the seed’s 2×2 shape', async (t) => {
    const disk = scratchExt4(t);
    disk.mount('nodiscard');
    const folder = folderIn(disk);
    const dir = mkdtempSync(join(tmpdir(), 'dd-discard-kept-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'library.sqlite');
    const refs = await runCli(['import', '--reference', '--db', db]);
    assert.equal(refs.code, 0, refs.stderr);
    const measured = await runCli(['discard-cost', folder, '--size', '4M', '--bigfile-size', '16M', '--runs', '1', '--db', db]);
    assert.equal(measured.code, 0, measured.stderr);
    assert.match(measured.stdout, /Kept as runs 6 and 7\./);
    assert.match(measured.stdout, /mount option +extract \+ sync +delete \+ sync/);
    assert.deepEqual(readdirSync(folder), [], 'nothing left in the folder');
    const compared = await runCli(['compare', '4', '5', '6', '7', '--db', db]);
    assert.equal(compared.code, 0, compared.stderr);
    const table = compared.stdout.slice(compared.stdout.indexOf('Online discard'));
    assert.match(table, /#4 Intel 525, ext4 on LVM on LUKS \(2013\) \(reference\)/);
    assert.match(
      table,
      /no discard +7\.368 s +0\.710 s\n +discard +7\.373 s +2\.697 s\n +discard costs +\+0\.005 s \(×1\.00\) +\+1\.987 s \(×3\.80\)/,
    );
    assert.match(table, /#6 discard-cost on \S+ — source tree of \d+ files, 4 MB, scaled from the seed's 45,168 files, 592 MB/);
    assert.match(table, /no discard +\d+\.\d{3} s +\d+\.\d{3} s\n +discard +\d+\.\d{3} s +\d+\.\d{3} s\n +discard costs /);
    assert.match(table, /per 320-file delete here/);
    assert.match(table, /fstrim afterwards: \d+(\.\d+)? s, [\d.]+ [KMG]?i?B trimmed/);
    assert.match(table, /Measured a scratch ext4 on \/dev\/loop\d+ \(direct I\/O\)/);
    // The seed's second case: the big file of each pair, the measured one beside the published 3 GB.
    assert.match(
      table,
      /#4 Intel 525, ext4 on LVM on LUKS \(2013\) \(reference\) — Big file \(3 GB\)\n +mount option +write \+ sync +delete \+ sync\n +no discard +— \(not timed\) +0\.430 s\n +discard +— \(not timed\) +1\.650 s/,
    );
    assert.match(
      table,
      /#6 discard-cost on \S+ — Big file: one file of 17 MB\n +mount option +write \+ sync +delete \+ sync\n +no discard +\d+\.\d{3} s +\d+\.\d{3} s\n +discard +\d+\.\d{3} s +\d+\.\d{3} s/,
    );
    const json = await runCli(['compare', '4', '5', '6', '7', '--json', '--db', db]);
    const parsed = JSON.parse(json.stdout) as { discard: Array<{ rows: unknown[]; fstrim: unknown }> };
    assert.equal(parsed.discard.length, 4, 'two pairs, each with the tree and the big file');
    assert.equal(parsed.discard[2]!.rows.length, 2);
    assert.ok(parsed.discard[2]!.fstrim);
    console.log(`# ${table.replace(/\n/g, '\n# ')}`);
  });
});
