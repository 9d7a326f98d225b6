// The tree workload's shape: derived from a real release's listing, shipped as data, and the
// worker's C table generated from it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readShippedShape } from '../../node/bench/tree-shape-file.ts';
import { bucketMax, deriveTreeShape, treeShapeHeader } from './tree-shape.ts';

const HEADER = fileURLToPath(new URL('../../../native/src/tree-shape.h', import.meta.url));

// A few lines of a real `tar tvf` listing of linux-source-6.1.tar.xz, a link and an empty file added.
const LISTING = `drwxr-xr-x 0/0               0 2026-11-26 17:12 linux-source-6.1/
-rw-r--r-- 0/0           20420 2026-11-06 18:15 linux-source-6.1/.clang-format
-rw-r--r-- 0/0              59 2026-11-06 18:15 linux-source-6.1/.cocciconfig
drwxr-xr-x 0/0               0 2026-11-06 18:15 linux-source-6.1/arch/
drwxr-xr-x 0/0               0 2026-11-06 18:15 linux-source-6.1/arch/x86/
-rw-r--r-- 0/0           87263 2026-11-06 18:15 linux-source-6.1/arch/x86/Kconfig
-rw-r--r-- 0/0               0 2026-11-06 18:15 linux-source-6.1/arch/x86/empty file
lrwxrwxrwx 0/0               0 2026-11-06 18:15 linux-source-6.1/arch/x86/link -> Kconfig
`;

describe('tree shape', () => {
  it('is derived from a `tar tvf` listing: files, bytes, folders and files per depth, size buckets', () => {
    const shape = deriveTreeShape(LISTING, 'test release', 'test');
    assert.equal(shape.files, 4);
    assert.equal(shape.bytes, 20420 + 59 + 87263);
    assert.equal(shape.dirs, 2, 'the top folder is the root, not counted');
    assert.equal(shape.symlinks, 1);
    assert.deepEqual(shape.depths, [
      { depth: 1, dirs: 1, files: 2 },
      { depth: 2, dirs: 1, files: 0 },
      { depth: 3, dirs: 0, files: 2 },
    ]);
    assert.deepEqual(
      shape.sizes.map((b) => [b.max, b.files, b.bytes]),
      [
        [0, 1, 0],
        [64, 1, 59],
        [32768, 1, 20420],
        [131072, 1, 87263],
      ],
    );
    assert.deepEqual(shape.fanout, { p50: 2, p90: 2, p99: 2, max: 2 });
  });

  it('refuses a line that is not a listing, and a device node, naming it', () => {
    assert.throws(() => deriveTreeShape('hello world\n', 'r', 'r'), /not a `tar tvf` line: hello world/);
    assert.throws(() => deriveTreeShape('crw-r--r-- 0/0  0 2026-11-06 18:15 top/dev/null\n', 'r', 'r'), /not 'c': top\/dev\/null/);
  });

  it('buckets sizes by powers of two', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 4096, 4097].map(bucketMax), [0, 1, 2, 4, 4, 8, 4096, 8192]);
  });

  it('the shipped shape names its release and adds up (depths and buckets to its totals)', () => {
    const shape = readShippedShape();
    assert.match(shape.release, /Linux 6\.1\.\d+ .*linux-source-6\.1/);
    assert.equal(
      shape.depths.reduce((n, d) => n + d.files, 0),
      shape.files,
    );
    assert.equal(
      shape.depths.reduce((n, d) => n + d.dirs, 0),
      shape.dirs,
    );
    assert.equal(
      shape.sizes.reduce((n, b) => n + b.files, 0),
      shape.files,
    );
    assert.equal(
      shape.sizes.reduce((n, b) => n + b.bytes, 0),
      shape.bytes,
    );
    for (const b of shape.sizes)
      assert.ok(b.bytes <= b.max * b.files && b.bytes >= (b.max / 2) * b.files, `bucket ${b.max} holds its sizes`);
  });

  it('native/src/tree-shape.h is generated from the shipped shape (run `npm run gen:tree-shape` after changing it)', () => {
    assert.equal(readFileSync(HEADER, 'utf8'), treeShapeHeader(readShippedShape()));
  });
});
