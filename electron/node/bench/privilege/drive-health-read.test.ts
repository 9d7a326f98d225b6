// readDriveHealth on a SATA/SCSI disk name: smartctl found in system folders (a stand-in is passed
// as the `smartctl` option here), a missing smartctl said as a reason, never an error.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readDriveHealth } from './drive-health-read.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-health-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in smartctl: a shell script that prints `json` and leaves a mark that it ran. */
function fakeSmartctl(name: string, json: string, exit = 0): { path: string; mark: string } {
  const path = join(dir, name);
  const mark = join(dir, `${name}.ran`);
  writeFileSync(path, `#!/bin/sh\necho ran > '${mark}'\ncat <<'JSON'\n${json}\nJSON\nexit ${exit}\n`);
  chmodSync(path, 0o755);
  return { path, mark };
}

/** A block device node named like a SATA disk (sdzzzy), for root only: its major is the loop driver's. */
function sataLikeNode(t: { skip: (why: string) => void }): string | null {
  if (process.getuid?.() !== 0) return (t.skip('needs root (mknod of a block device node under /dev)'), null);
  const node = '/dev/sdzzzy';
  rmSync(node, { force: true });
  const r = spawnSync('mknod', [node, 'b', '7', '250'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) return (t.skip(`mknod ${node} failed: ${r.stderr.trim()}`), null);
  return node;
}

test('a SATA disk without smartctl installed: the counters are not read, and that is said', async () => {
  const h = await readDriveHealth('sda', { deviceClass: 'SATA SSD', elevate: false, smartctl: '/nonexistent/smartctl' });
  assert.deepEqual(h, { disk: 'sda', protocol: null, reason: 'drive counters not read: smartctl (smartmontools) is not installed' });
});

test('smartctl is run only on a block device', async () => {
  const h = await readDriveHealth('sdzzz', { elevate: false, smartctl: '/bin/false' });
  assert.deepEqual(h, { disk: 'sdzzz', protocol: null, reason: '/dev/sdzzz is not a block device: its SMART attributes were not read' });
});

test('a partition name or any other disk is not handed to smartctl', async () => {
  const h = await readDriveHealth('sda1', { deviceClass: null, elevate: false, smartctl: '/bin/false' });
  assert.equal(h.protocol, null);
  if (h.protocol === null) assert.match(h.reason, /sda1 is not an NVMe drive/);
});

test('DISKDELTA_SMARTCTL in the environment is never run, as root or elevated', async (t) => {
  const node = sataLikeNode(t);
  if (!node) return;
  const fake = fakeSmartctl('env-smartctl', '{}');
  const saved = process.env.DISKDELTA_SMARTCTL;
  process.env.DISKDELTA_SMARTCTL = fake.path; // what `sudo -E diskdelta health` would carry in
  try {
    await readDriveHealth('sdzzzy', { elevate: true });
  } finally {
    if (saved === undefined) delete process.env.DISKDELTA_SMARTCTL;
    else process.env.DISKDELTA_SMARTCTL = saved;
    rmSync(node, { force: true });
  }
  assert.equal(existsSync(fake.mark), false, 'the program named by DISKDELTA_SMARTCTL ran as root');
});
