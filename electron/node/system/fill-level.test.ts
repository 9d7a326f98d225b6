// #41 item 4: the fill level a run notes, against df on an ext4 filled to a known level (a
// scratch ext4 on a loop device whose file lies in /dev/shm), and carried through a real run
// into the library, `show`, compare and the report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFillLevel } from './fill-level.ts';
import { fillPercent, fillText } from '../../shared/analysis/fill-level.ts';
import { folderIn, scratchExt4, scratchUnavailable } from '../bench/trim/fixtures/scratch-ext4.ts';
import { runCli } from '../../cli/run-cli-in-process.ts';
import { openLibrary } from '../store/library.ts';
import { compareRuns } from '../../shared/analysis/compare.ts';
import { buildReport } from '../../shared/report/report-model.ts';

/** df's own Size, Used and Avail of `path`, in bytes. */
function df(path: string): { size: number; used: number; avail: number } {
  const r = spawnSync('df', ['-B1', '--output=size,used,avail', path], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [size, used, avail] = r.stdout.trim().split('\n')[1]!.trim().split(/\s+/).map(Number);
  return { size: size!, used: used!, avail: avail! };
}

/** Writes `bytes` of data to a new file and syncs the file system, so statfs counts its blocks. */
function fillWith(folder: string, name: string, bytes: number): void {
  writeFileSync(join(folder, name), Buffer.alloc(bytes, 0x5a));
  assert.equal(spawnSync('sync', ['-f', folder]).status, 0);
}

describe('fill level', { skip: scratchUnavailable ?? false, timeout: 120_000 }, () => {
  it('equals df on an ext4 filled to known levels, and grows by what was written', async (t) => {
    const s = scratchExt4(t, 64 * 2 ** 20);
    s.mount('nodiscard');
    const folder = folderIn(s);
    const empty = await readFillLevel(folder, 'folder');
    assert.ok(!('reason' in empty), JSON.stringify(empty));
    const ref = df(folder);
    assert.deepEqual([empty.sizeBytes, empty.usedBytes, empty.availableBytes], [ref.size, ref.used, ref.avail]);
    // About half of the file system's size, then about three quarters.
    for (const [name, bytes] of [
      ['half', 28 * 2 ** 20],
      ['more', 16 * 2 ** 20],
    ] as const) {
      const before = await readFillLevel(folder, 'folder');
      fillWith(folder, name, bytes);
      const after = await readFillLevel(folder, 'folder');
      assert.ok(!('reason' in before) && !('reason' in after));
      const now = df(folder);
      assert.deepEqual([after.sizeBytes, after.usedBytes, after.availableBytes], [now.size, now.used, now.avail]);
      // The data's blocks, plus at most an extent block or two of metadata.
      const grew = after.usedBytes - before.usedBytes;
      assert.ok(grew >= bytes && grew <= bytes + 16 * 4096, `used grew by ${grew} for ${bytes} written`);
      assert.equal(fillPercent(after), (now.used / now.size) * 100);
    }
    const full = await readFillLevel(folder, 'folder');
    assert.match(fillText(full), /^\d+\.\d % full \(.+ used of .+, .+ available\)$/);
    assert.ok(fillPercent(full)! > 60, fillText(full));
  });

  it('says why for a raw device and for a path statfs cannot read', async () => {
    const raw = await readFillLevel('/dev/null', 'block-device');
    assert.ok('reason' in raw && /raw device/.test(raw.reason));
    const gone = await readFillLevel('/nonexistent/diskdelta-fill', 'folder');
    assert.ok('reason' in gone && /statfs of \/nonexistent\/diskdelta-fill failed: ENOENT/.test(gone.reason), JSON.stringify(gone));
    assert.match(fillText(gone), /^not read: statfs/);
  });

  it('is stored with a run and shown by show, compare and the report', async (t) => {
    const s = scratchExt4(t, 96 * 2 ** 20);
    s.mount('nodiscard');
    const folder = folderIn(s);
    fillWith(folder, 'data', 16 * 2 ** 20);
    const expected = df(folder);
    const dir = mkdtempSync(join(tmpdir(), 'dd-fill-db-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'library.sqlite');
    const quick = [
      '--tests',
      'seq1m-q1t1-read',
      '--size',
      '16MiB',
      '--duration',
      '0.2',
      '--warmup',
      '0',
      '--runs',
      '1',
      '--precision',
      '0',
    ];
    for (const label of ['first', 'second']) {
      // The worker's io_uring lets go of the first run's removed test file after it exits: wait
      // (bounded) until the file system is back at its level, as fill-level.ts explains.
      for (let i = 0; i < 100 && df(folder).used !== expected.used; i += 1) await new Promise((r) => setTimeout(r, 100));
      const run = await runCli(['run', '--target', folder, ...quick, '--label', label, '--db', db]);
      assert.equal(run.code, 0, run.stderr + run.stdout);
      assert.match(run.stdout, /Fill level: \d+\.\d % full/);
    }
    const library = openLibrary({ dbPath: db });
    try {
      const runs = library.readRuns(library.listRuns().map((r) => r.id)).runs.filter((r) => r !== null);
      assert.equal(runs.length, 2);
      const fill = runs[0]!.fill;
      assert.ok(fill && !('reason' in fill), JSON.stringify(fill));
      // Read before the run's own test file was made: the level the user's disk was at.
      assert.deepEqual([fill.sizeBytes, fill.usedBytes], [expected.size, expected.used]);
      const percent = ((expected.used / expected.size) * 100).toFixed(1);
      const compared = compareRuns(runs);
      assert.ok(
        compared.notes.some((n) => n.includes(`#1 ${percent} %, #2 ${percent} %`)),
        compared.notes.join('\n'),
      );
      const report = buildReport(runs, { generatedAt: new Date() });
      assert.ok(
        report.runs.every((r) => r.fill?.startsWith(`${percent} % full`)),
        JSON.stringify(report.runs.map((r) => r.fill)),
      );
      const shown = await runCli(['show', String(runs[0]!.id), '--db', db]);
      assert.match(shown.stdout, new RegExp(`fill level {2}${percent.replace('.', '\\.')} % full`));
    } finally {
      library.close();
    }
  });
});
