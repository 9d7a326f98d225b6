// A working-set scan of a folder whose contents are being deleted while it walks (#38 item 23):
// what was listed and then gone is counted as vanished and said, never silently left out.
// The race cannot be forced from outside the worker (the window is between a folder's listing
// and the look at each entry), so the test deletes thousands of folders while the scan runs and
// tries a bounded number of times; if the deleter never wins here, it skips saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWorker } from './worker-harness.ts';
import { vanishedWarning } from '../../electron/node/bench/kinds/working-set.ts';

const FOLDERS = 3000;

function plant(root: string): void {
  for (let i = 0; i < FOLDERS; i++) {
    const d = join(root, `d${i}`);
    mkdirSync(d);
    writeFileSync(join(d, 'f'), 'x');
  }
}

test('entries removed while the scan walks are counted as vanished in its result', async (t) => {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const root = mkdtempSync(join(tmpdir(), 'dd-vanish-'));
    try {
      plant(root);
      // The deleter: removes every folder as fast as it can, started with the scan.
      const deleter = spawn('sh', ['-c', `cd "$0" && for d in d*; do rm -rf "$d"; done`, root], { stdio: 'ignore' });
      const deleted = new Promise((resolve) => deleter.on('close', resolve));
      const scan = await runWorker(['working-set', '--target', root]);
      await deleted;
      assert.equal(scan.code, 0, scan.stderr);
      const result = scan.messages.find((m) => m.type === 'scan-result');
      assert.ok(result && result.type === 'scan-result', scan.stdout);
      // Never more than there was: 3,000 folders of one file each, and the root.
      assert.ok(result.files <= FOLDERS && result.dirs <= FOLDERS + 1, JSON.stringify(result));
      if (result.vanished > 0) {
        // Each vanished entry was listed and is not among the counted ones.
        assert.ok(result.dirs + result.vanished <= FOLDERS + 1 + FOLDERS, JSON.stringify(result));
        return;
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  t.skip(
    'in 5 tries the deleter never removed a folder between its listing and the scan looking at it (a very fast or very slow machine): nothing to judge',
  );
});

test('the warning says how many were removed while the scan walked, and that they are not counted', () => {
  assert.equal(vanishedWarning(0), null);
  assert.match(vanishedWarning(1)?.message ?? '', /^1 file or folder was removed while the scan walked past it, so it is not counted/);
  assert.match(
    vanishedWarning(42)?.message ?? '',
    /^42 files or folders were removed while the scan walked past them, so they are not counted .*Scan again when it is quiet/,
  );
  assert.equal(vanishedWarning(3)?.code, 'scan-vanished');
});
