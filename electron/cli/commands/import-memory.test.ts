// Memory before refusal (#23 item 9): a 45 MB file of newlines named .csv took 1.6 GB before
// it was refused, 45 MB of commas 755 MB. Each hostile shape is imported here by the real CLI
// with V8's heap capped at 6× the file (NODE_OPTIONS reaches the launcher's re-exec too): it
// must end with the importer's own refusal, not die out of memory. A structural bound, not a
// time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
const SIZE = 45_000_000;
const HEAP_MB = Math.ceil((6 * SIZE) / 1e6);

const KDISKMARK_HEAD =
  'KDiskMark (3.1.4): https://github.com/JonMagon/KDiskMark\nFlexible I/O Tester (fio-3.33): https://github.com/axboe/fio\n' +
  '-----------------------------------------------------------------------\n* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n\n[Read]\n';

const SHAPES: Array<{ name: string; body: () => string; refusal: RegExp }> = [
  { name: 'newlines.csv', body: () => '\n'.repeat(SIZE), refusal: /unrecognised format|too many lines/ },
  { name: 'commas.csv', body: () => ','.repeat(SIZE), refusal: /unrecognised format|fields/ },
  { name: 'short-lines.csv', body: () => 'a,\n'.repeat(SIZE / 3), refusal: /unrecognised format|too many lines/ },
  { name: 'rows.csv', body: () => `1.98,2.00a,x,1,1,1G,,8192,5,${'1,'.repeat(SIZE / 2 - 20)}\n`, refusal: /fields|not a bonnie\+\+/ },
  {
    name: 'fio-empty-jobs.json',
    body: () => `{"fio version":"fio-3.33","jobs":[${'{},'.repeat(SIZE / 3 - 20)}{}]}\n`,
    refusal: /objects and arrays/,
  },
  {
    name: 'export-empty-runs.json',
    body: () => `{"format":"diskdelta-results","version":1,"runs":[${'[],'.repeat(SIZE / 3 - 30)}[]]}\n`,
    refusal: /objects and arrays/,
  },
  { name: 'fio-zeros.json', body: () => `{"fio version":"fio-3.33","jobs":[${'0,'.repeat(SIZE / 2 - 30)}0]}\n`, refusal: /values/ },
  { name: 'kdiskmark.txt', body: () => KDISKMARK_HEAD + '\n'.repeat(SIZE - KDISKMARK_HEAD.length), refusal: /lines|not a complete|Test:/ },
];

test(`every importer refuses a hostile 45 MB file within a ${HEAP_MB} MB heap`, { timeout: 1_800_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-import-memory-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const shape of SHAPES) {
    const file = join(dir, shape.name);
    writeFileSync(file, shape.body());
    const r = spawnSync(process.execPath, [CLI, 'import', file, '--db', join(dir, 'library.sqlite')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
    });
    rmSync(file);
    assert.doesNotMatch(r.stderr, /heap out of memory|Allocation failed/, `${shape.name}: out of memory within ${HEAP_MB} MB`);
    assert.equal(r.status, 1, `${shape.name}: ${r.stderr.slice(0, 500)}`);
    assert.match(r.stderr, shape.refusal, shape.name);
    assert.match(r.stderr, /nothing was imported/, shape.name);
  }
});
