// readDriveHealth on a SATA/SCSI disk name: smartctl found in system folders (a stand-in is passed
// as the `smartctl` option here), a missing smartctl said as a reason, never an error.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** smartctl 7.x's JSON when the caller may not open the disk (exit status bit 1: open failed). */
const permissionDenied = (device: string) =>
  JSON.stringify({
    json_format_version: [1, 0],
    smartctl: {
      version: [7, 3],
      messages: [{ string: `Smartctl open device: ${device} failed: Permission denied`, severity: 'error' }],
      exit_status: 2,
    },
    device: { name: device, info_name: device, type: 'sat', protocol: 'ATA' },
  });

test('smartctl refused as the user, no elevation: the reason says it needs root and --elevate', async (t) => {
  const node = sataLikeNode(t);
  if (!node) return;
  const fake = fakeSmartctl('denied-smartctl', permissionDenied(node), 2);
  try {
    for (const elevate of [false, undefined]) {
      const h = await readDriveHealth('sdzzzy', { smartctl: fake.path, uid: 1000, ...(elevate === undefined ? {} : { elevate }) });
      assert.deepEqual(
        h,
        {
          disk: 'sdzzzy',
          protocol: null,
          reason: "reading /dev/sdzzzy's SMART attributes needs root (smartctl opens the disk): run as root, or with --elevate",
        },
        `elevate ${elevate}`,
      );
    }
  } finally {
    rmSync(node, { force: true });
  }
  assert.ok(existsSync(fake.mark), 'smartctl was tried as the user first');
});

test("refused and elevated: pkexec runs the helper's smart-ata verb, never the stand-in smartctl", async (t) => {
  const node = sataLikeNode(t);
  if (!node) return;
  const fake = fakeSmartctl('denied-smartctl-2', permissionDenied(node), 2);
  // A pkexec stand-in first on PATH: it records its argv and answers as smart-ata would fail.
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const argvFile = join(dir, 'pkexec.argv');
  writeFileSync(
    join(bin, 'pkexec'),
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\necho 'diskdelta-helper: refusing ${node}: not a SCSI/ATA disk; nothing was read' >&2\nexit 3\n`,
  );
  chmodSync(join(bin, 'pkexec'), 0o755);
  const saved = { PATH: process.env.PATH, DISKDELTA_HELPER: process.env.DISKDELTA_HELPER };
  process.env.PATH = `${bin}:${process.env.PATH}`;
  process.env.DISKDELTA_HELPER = '/opt/diskdelta/diskdelta-helper';
  let h;
  try {
    h = await readDriveHealth('sdzzzy', { smartctl: fake.path, uid: 1000, elevate: true });
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.DISKDELTA_HELPER === undefined) delete process.env.DISKDELTA_HELPER;
    else process.env.DISKDELTA_HELPER = saved.DISKDELTA_HELPER;
    rmSync(node, { force: true });
  }
  assert.deepEqual(readFileSync(argvFile, 'utf8').trim().split('\n'), ['/opt/diskdelta/diskdelta-helper', 'smart-ata', node]);
  assert.deepEqual(h, {
    disk: 'sdzzzy',
    protocol: null,
    reason: `the SMART attributes of /dev/sdzzzy were not read: refusing ${node}: not a SCSI/ATA disk; nothing was read`,
  });
});

test('NVMe, like SATA: without elevate a user who is not root is not asked for a password', async () => {
  const h = await readDriveHealth('nvme0n1', { uid: 1000 });
  assert.deepEqual(h, {
    disk: 'nvme0n1',
    protocol: null,
    reason: "reading the drive's SMART log needs root (an NVMe admin command), and this run was not allowed to ask for a password",
  });
});

test('smartctl JSON the model does not accept is a reason, not a reading (validated where it is parsed)', async (t) => {
  const node = sataLikeNode(t);
  if (!node) return;
  const json = JSON.stringify({
    smartctl: { version: [7, 3], exit_status: 0 },
    device: { name: node, protocol: 'ATA' },
    model_name: 'X'.repeat(5000),
    ata_smart_attributes: { table: [{ id: 9, name: 'Power_On_Hours', value: 100, worst: 100, thresh: 0, raw: { value: 5, string: '5' } }] },
  });
  const fake = fakeSmartctl('long-model-smartctl', json);
  let h;
  try {
    h = await readDriveHealth('sdzzzy', { smartctl: fake.path, uid: 0 });
  } finally {
    rmSync(node, { force: true });
  }
  assert.equal(h.protocol, null, 'a 5000-character model name is not a reading');
  if (h.protocol === null) assert.match(h.reason, /^smartctl's output for \/dev\/sdzzzy could not be understood: model: /);
});
