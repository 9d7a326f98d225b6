// The working-set scan on a real mount whose atime option is chosen: ext4 on a loop device,
// mounted relatime and then noatime. The planted tree (fixtures/working-set-tree.ts) is read
// after planting: under relatime the read moves the file into today's window, under noatime it
// moves nothing, and the scan says reads are not seen. Every window exact, both ways.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summaryOfResult, workingSetVerdict } from '../../../shared/analysis/working-set.ts';
import { scratchExt4, scratchUnavailable } from '../trim/fixtures/scratch-ext4.ts';
import { allocates, expectedWindows, FILES, makeTree, scan } from './fixtures/working-set-tree.ts';

describe('working-set scan under the mount atime options', { skip: scratchUnavailable ?? false }, () => {
  it('relatime: a read after planting counts today; noatime: a read counts nothing, and the scan says so', (t) => {
    const disk = scratchExt4(t, 64 * 2 ** 20);
    disk.mount('relatime');
    const { root } = makeTree(t, disk.mountpoint);
    assert.ok(allocates(root), 'ext4 allocates exactly what is written');

    // eight-days.txt was last read 7.2 days ago: relatime records a read older than a day.
    readFileSync(join(root, 'docs/eight-days.txt'));
    const relatime = scan(root).result;
    const afterRead = FILES.map((f) => (f.path === 'docs/eight-days.txt' ? { ...f, readDaysAgo: 0 } : f));
    assert.deepEqual(summaryOfResult(relatime)!.windows, expectedWindows(afterRead));
    assert.ok(
      relatime.warnings.some((w) => w.code === 'atime-relatime' && /at most once a day/.test(w.message)),
      JSON.stringify(relatime.warnings),
    );

    disk.mount('noatime');
    // film.bin was last read 45.5 days ago; under noatime this read is not recorded.
    readFileSync(join(root, 'media/film.bin'));
    const noatime = scan(root).result;
    const summary = summaryOfResult(noatime)!;
    assert.deepEqual(summary.windows, expectedWindows(afterRead), 'the read under noatime moved nothing');
    const said = noatime.warnings.find((w) => w.code === 'atime-noatime');
    assert.match(said?.message ?? '', /mounted noatime: reads are not recorded, so only writes are seen/);
    assert.equal(summary.readsSeen, false);
    assert.match(workingSetVerdict(summary), /^Reads are not seen on this mount \(noatime\)/);
  });
});
