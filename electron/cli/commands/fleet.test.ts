// `diskdelta fleet run --folder` (issue #38 item 10): a folder fio's job file cannot hold is bad
// usage, said in one line before any host is reached: exit 2, no stack trace, nothing saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', '..', 'bin', 'diskdelta.js');

test('fleet run refuses a folder with a newline, a colon or another character fio reads as syntax: exit 2, one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-fleet-cli-'));
  try {
    const hosts = join(dir, 'hosts');
    // 127.0.0.29: nothing listens there; a folder that got past the check would be reported as a refused host instead.
    writeFileSync(hosts, '127.0.0.29,40000\n');
    const db = join(dir, 'library.sqlite');
    for (const [folder, said] of [
      ['/var/tmp\n[evil]', /control character/],
      ['/var/tmp/a:b', /holds ":"/],
      ['/var/tmp/a;b', /holds ";"/],
      ['/var/tmp/#b', /holds "#"/],
      ['/var/tmp/${HOME}', /holds "\$"/],
      ['/var/tmp/a\\b', /holds "\\"/],
      ['/var/tmp/ ', /blank/],
      ['var/tmp', /absolute path/],
    ] as const) {
      const r = spawnSync(process.execPath, [CLI, 'fleet', 'run', '--hosts', hosts, '--folder', folder, '--db', db], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 2, `${JSON.stringify(folder)}: ${r.stderr}`);
      assert.match(r.stderr, said, JSON.stringify(folder));
      assert.match(r.stderr, /^diskdelta[^\n]*--folder: [^\n]*\n$/, `one line, no stack trace: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /refused|client_stats|\n {4}at /);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
