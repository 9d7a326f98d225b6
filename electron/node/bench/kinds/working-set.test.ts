// The working-set scan against a generated tree whose sizes and times are known: each file's
// atime and mtime set by utimensat (fs.utimesSync), a hard link, a sparse file, a folder the
// scanning user cannot read and (as root) a tmpfs mounted inside. Every window's bytes must come
// out exactly; the walk goes through the real worker verb and the kind's own reading of it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summaryOfResult, workingSetVerdict, type WorkingSetSummary } from '../../../shared/analysis/working-set.ts';
import { allocates, expectedWindows, FILES, makeTree, scan } from './fixtures/working-set-tree.ts';

const isRoot = process.getuid?.() === 0;

describe('working-set scan', () => {
  it('every window holds exactly the planted bytes: hard link once, a sparse file by its blocks', (t) => {
    const { root } = makeTree(t);
    if (!allocates(root))
      return t.skip(`${tmpdir()} does not allocate exactly what is written (compression, inline data): no exact truth here`);
    const { result, progress } = scan(root);
    const summary = summaryOfResult(result) as WorkingSetSummary;
    assert.deepEqual(summary.windows, expectedWindows(FILES));
    assert.equal(
      summary.totalBytes,
      FILES.reduce((n, f) => n + f.bytes, 0),
      'the hard link and the sparse file add nothing',
    );
    assert.equal(summary.files, FILES.length + 2, 'the sparse and the empty file are files; the link is not a second one');
    // Per folder: media holds film.bin (or archive does, whichever name came first), docs all its files.
    const docs = summary.folders.find((f) => f.name === 'docs');
    assert.equal(docs?.bytes, (3 + 5 + 7) * 4096);
    assert.equal(docs?.recentBytes, (3 + 5 + 7) * 4096);
    const media = summary.folders.find((f) => f.name === 'media')!;
    const archive = summary.folders.find((f) => f.name === 'archive')!;
    assert.equal(media.bytes + archive.bytes, (64 + 11 + 13) * 4096);
    assert.ok([11 * 4096, 75 * 4096].includes(media.bytes), `film.bin counted in one folder only: media holds ${media.bytes}`);
    assert.equal(summary.folders.find((f) => f.name === '(files in the folder itself)')?.bytes, 4096);
    assert.match(result.figures?.[0]?.basis ?? '', /1 hard link counted once/);
    assert.ok(progress.length >= 1 && progress.every((p) => p.type === 'progress' && p.fraction >= 0 && p.fraction <= 0.99));
  });

  it('names the folder it cannot read and counts none of its bytes (run as nobody, or as yourself without root)', (t) => {
    const { root } = makeTree(t);
    if (!allocates(root)) return t.skip('no exact allocation here');
    mkdirSync(join(root, 'docs/private'));
    writeFileSync(join(root, 'docs/private/secret.bin'), Buffer.alloc(9 * 4096));
    chmodSync(join(root, 'docs/private'), 0o700);
    let user: string | undefined;
    if (isRoot) {
      // Root reads everything: the tree is opened to all, the private folder stays root's.
      spawnSync('chmod', ['-R', 'a+rX', root]);
      chmodSync(join(root, 'docs/private'), 0o700);
      user = 'nobody';
    } else chmodSync(join(root, 'docs/private'), 0o000);
    const { result } = scan(root, user);
    const summary = summaryOfResult(result)!;
    assert.deepEqual(summary.windows, expectedWindows(FILES), 'the secret file is not counted');
    const unreadable = result.warnings.find((w) => w.code === 'scan-unreadable');
    assert.ok(unreadable, JSON.stringify(result.warnings));
    assert.match(
      unreadable.message,
      new RegExp(`1 folder could not be read.*${join(root, 'docs/private').replace(/[/.]/g, '\\$&')} \\(Permission denied\\)`),
    );
  });

  it('does not walk a filesystem mounted inside, and names it (root: a tmpfs for a moment)', (t) => {
    if (!isRoot) return t.skip('mounting a tmpfs needs root');
    const { root } = makeTree(t);
    if (!allocates(root)) return t.skip('no exact allocation here');
    mkdirSync(join(root, 'mnt'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', join(root, 'mnt')], { encoding: 'utf8' });
    if (mounted.status !== 0) return t.skip(`cannot mount a tmpfs here: ${mounted.stderr.trim()}`);
    writeFileSync(join(root, 'mnt/elsewhere.bin'), Buffer.alloc(100 * 4096));
    const { result } = scan(root);
    assert.deepEqual(summaryOfResult(result)!.windows, expectedWindows(FILES), 'nothing of the tmpfs counts');
    const other = result.warnings.find((w) => w.code === 'scan-other-mount');
    assert.match(
      other?.message ?? '',
      new RegExp(`1 folder is another filesystem, not walked .*${root.replace(/[/.]/g, '\\$&')}/mnt \\(tmpfs\\)`),
    );
  });

  it('the verdict says it in words, with and without an SSD size', () => {
    const summary: WorkingSetSummary = {
      totalBytes: 394e9,
      files: 1000,
      windows: [
        { days: 1, touchedBytes: 2e9, writtenBytes: 1e9 },
        { days: 7, touchedBytes: 10e9, writtenBytes: 5e9 },
        { days: 30, touchedBytes: 40e9, writtenBytes: 20e9 },
        { days: 90, touchedBytes: 84e9, writtenBytes: 30e9 },
        { days: 365, touchedBytes: 84e9, writtenBytes: 40e9 },
      ],
      folders: [],
      readsSeen: true,
    };
    assert.equal(
      workingSetVerdict(summary, 120e9),
      'Your 90-day working set is 84 GB: the 120 GB SSD holds it with 36 GB to spare; what you have not touched in a year, 310 GB, can live on the old disk or the network.',
    );
    assert.equal(
      workingSetVerdict(summary, 64e9),
      'Your 90-day working set is 84 GB: it does not fit on the 64 GB SSD (20 GB short); what you touched within 30 days (40 GB) would fit; what you have not touched in a year, 310 GB, can live on the old disk or the network.',
    );
    assert.match(
      workingSetVerdict({ ...summary, readsSeen: false }),
      /^Reads are not seen on this mount \(noatime\): .* Your 90-day written set is 84 GB;/,
    );
  });
});
