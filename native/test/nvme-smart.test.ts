// The helper's smart-log commands and the pages they fetch, end to end without a drive that has
// them: native/src/nvme-smart.c (the root helper's own code) linked against a pretend drive
// (nvme-smart-fake.c, which answers the ioctl), its JSON line read by the product's parser. The
// expected commands are written here from the NVMe base specification (Get Log Page: opcode 02h,
// CDW10 = dwords − 1 in bits 31:16, Retain Asynchronous Event bit 15, log id bits 7:0; CDW11 bits
// 31:16 the log-specific id, the endurance group for 09h; Identify: opcode 06h, CNS in CDW10),
// not from the C code, so a wrong encoding fails here. The lab (e2e/drive-health-lab.test.ts)
// runs the same commands against QEMU's emulated NVMe, which refuses 09h and C0h.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSmartLog } from '../../electron/node/system/drive-health.ts';

const SOURCES = ['nvme-smart-fake.c', '../src/nvme-smart.c'].map((f) => fileURLToPath(new URL(f, import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'diskdelta-nvme-fake-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const harness = join(dir, 'nvme-smart-fake');
const cc = spawnSync(
  process.env.CC ?? 'cc',
  ['-O2', '-Wall', '-I', fileURLToPath(new URL('../src', import.meta.url)), '-o', harness, ...SOURCES],
  { encoding: 'utf8', timeout: 60_000 },
);
const cannotBuild = cc.error || cc.status !== 0 ? `cannot build the pretend drive: ${cc.error?.message ?? cc.stderr.trim()}` : false;

interface Command {
  opcode: number;
  nsid: number;
  cdw10: number;
  cdw11: number;
  data_len: number;
}

/** The harness's JSON line parsed by the product, and the commands it sent. */
function ask(scenario: string, device = '/dev/null') {
  const r = spawnSync(harness, [scenario, device], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  const commands = r.stderr
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Command);
  const health = parseSmartLog('nvme0n1', r.stdout);
  assert.equal(health.protocol, 'nvme');
  return { commands, media: health.protocol === 'nvme' ? health.mediaWrites : undefined };
}

const ALL_NAMESPACES = 0xffffffff;
const RAE = 1 << 15;
const getLog = (logId: number, nsid: number, logSpecificId = 0): Command => ({
  opcode: 0x02,
  nsid,
  cdw10: ((512 / 4 - 1) << 16) | RAE | logId,
  cdw11: logSpecificId << 16,
  data_len: 512,
});
const identify = (cns: number, nsid: number): Command => ({ opcode: 0x06, nsid, cdw10: cns, cdw11: 0, data_len: 4096 });
const SMART = getLog(0x02, ALL_NAMESPACES);
const C0 = getLog(0xc0, ALL_NAMESPACES);

test('a controller with one endurance group and OCP C0h: the commands by the spec, and C0h read in bytes', { skip: cannotBuild }, () => {
  const { commands, media } = ask('both');
  assert.deepEqual(commands, [SMART, identify(0x01, 0), getLog(0x09, 0, 1), C0]);
  assert.deepEqual(media, { source: 'ocp-c0', bytes: 123_456_789_012, unitBytes: 1 });
});

test(
  "without C0h, or with another maker's C0h: the endurance group's Media Units Written, in billions of bytes",
  { skip: cannotBuild },
  () => {
    for (const scenario of ['egonly', 'wrongguid']) {
      const { commands, media } = ask(scenario);
      assert.deepEqual(commands, [SMART, identify(0x01, 0), getLog(0x09, 0, 1), C0], scenario);
      assert.deepEqual(media, { source: 'endurance-group', bytes: 25e9, unitBytes: 1e9 }, scenario);
    }
  },
);

test('no endurance groups and no C0h: 09h is never asked for, and the reason is what the drive answered', { skip: cannotBuild }, () => {
  const { commands, media } = ask('nogroups');
  assert.deepEqual(commands, [SMART, identify(0x01, 0), C0]);
  assert.deepEqual(media, {
    source: null,
    reason:
      'C0h: Get Log Page C0h: the drive answered status 0x4002; 09h: the controller reports no endurance groups (Identify Controller CTRATT bit 4 clear)',
  });
});

test('a controller with two endurance groups is not guessed at: name the namespace', { skip: cannotBuild }, () => {
  const { commands, media } = ask('twogroups');
  assert.ok(!commands.some((c) => (c.cdw10 & 0xff) === 0x09 && c.opcode === 0x02), JSON.stringify(commands));
  assert.match(
    media?.source === null ? media.reason : '',
    /09h: the controller has 2 endurance groups: name the namespace \(\/dev\/nvmeNnM\)/,
  );
});

test(
  "a namespace's own endurance group: Identify Namespace gives ENDGID, and 09h asks for that group",
  {
    skip:
      cannotBuild ||
      (process.getuid?.() !== 0 ? 'needs root to attach a loop device (the namespace path needs a block device)' : false) ||
      (!existsSync('/dev/shm') ? 'no /dev/shm for the loop device’s file' : false),
    timeout: 60_000,
  },
  (t) => {
    // Any block device will do: the pretend drive answers every ioctl, so nothing reaches the loop driver.
    const shm = mkdtempSync('/dev/shm/dd-nvme-fake-');
    t.after(() => rmSync(shm, { recursive: true, force: true }));
    writeFileSync(join(shm, 'disk.img'), Buffer.alloc(1 << 20));
    const attach = spawnSync('losetup', ['-f', '--show', join(shm, 'disk.img')], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(attach.status, 0, attach.stderr);
    const loop = attach.stdout.trim();
    t.after(() => spawnSync('losetup', ['-d', loop], { timeout: 30_000 }));
    const { commands, media } = ask('group3', loop);
    // The fake's NVME_IOCTL_ID says namespace 1.
    assert.deepEqual(commands, [SMART, identify(0x01, 0), identify(0x00, 1), getLog(0x09, 0, 3), C0]);
    assert.deepEqual(media, { source: 'endurance-group', bytes: 25e9, unitBytes: 1e9 });
  },
);

test(
  'every command the helper sends is Identify or Get Log Page, and every log is read keeping its asynchronous events',
  { skip: cannotBuild },
  () => {
    for (const scenario of ['both', 'egonly', 'wrongguid', 'nogroups', 'twogroups']) {
      for (const c of ask(scenario).commands) {
        assert.ok(c.opcode === 0x02 || c.opcode === 0x06, `${scenario}: opcode ${c.opcode}`);
        if (c.opcode === 0x02) assert.ok(c.cdw10 & RAE, `${scenario}: log ${c.cdw10 & 0xff} without Retain Asynchronous Event`);
      }
    }
  },
);
