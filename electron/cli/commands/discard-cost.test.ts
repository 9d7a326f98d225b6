// discard-cost's size option, before anything is made: the tree's bytes with its file count
// scaled (the seed's file sizes kept), refused with what to write when it is no size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../run-cli-in-process.ts';
import { bigFileOfSize, treeOfSize } from './discard-cost.ts';

test('--size scales the seed’s tree: bytes as given, files in proportion; none: the seed’s own', () => {
  assert.deepEqual(treeOfSize(undefined), { files: 45_168, bytes: 592_000_000 });
  assert.deepEqual(treeOfSize('59.2MB'), { files: 4517, bytes: 59_200_000 });
  assert.deepEqual(treeOfSize('4M'), { files: 320, bytes: 4_194_304 });
});

test('a size that is none, or too small for a tree, is refused with what to write, and nothing runs', async () => {
  const bad = await runCli(['discard-cost', '/nonexistent-folder', '--size', 'big']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--size 'big' is not a size: write a number with an optional unit, e\.g\. 256MiB/);
  const small = await runCli(['discard-cost', '/nonexistent-folder', '--size', '100K']);
  assert.equal(small.code, 2);
  assert.match(small.stderr, /--size '100K' is too small: the tree needs 1MiB at least/);
});

test('--bigfile-size: the seed’s 3 GB by default, a size as given; none or under 16 MiB refused with what to write, nothing runs', async () => {
  assert.equal(bigFileOfSize(undefined), 3_000_000_000);
  assert.equal(bigFileOfSize('500M'), 500 * 2 ** 20);
  const bad = await runCli(['discard-cost', '/nonexistent-folder', '--bigfile-size', 'huge']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--bigfile-size 'huge' is not a size: write a number with an optional unit/);
  const small = await runCli(['discard-cost', '/nonexistent-folder', '--bigfile-size', '1M']);
  assert.equal(small.code, 2);
  assert.match(small.stderr, /--bigfile-size '1M' is too small: the big file needs 16MiB at least/);
});
