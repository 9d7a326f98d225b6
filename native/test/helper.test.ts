// The privileged helper's own tests: the real binary, run as root directly (pkexec adds only the
// authorisation, tested in e2e/polkit-lab.test.ts). Every refusal must exit with its code, say
// why, pass nothing back and open nothing: strace records every open the helper makes, and a
// refused operand may at most be looked up (O_PATH), never opened for I/O.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { reachableCopy } from '../../scripts/other-user.ts';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));
const HELPER = process.env.DISKDELTA_HELPER ?? join(NATIVE, 'build', 'diskdelta-helper');
const HX = { ok: 0, usage: 2, refused: 3, vanished: 4, notRoot: 6 };
const isRoot = process.getuid?.() === 0;
const hasStrace = spawnSync('strace', ['-V']).status === 0;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every open/openat/openat2 the helper made (strace), when strace is installed. */
  opens: string[];
}

/** Runs the helper; Node's stdout pipe is a Unix socket, as the worker's is. */
function runHelper(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}`);
  const [cmd, argv] = hasStrace
    ? ['strace', ['-f', '-qq', '-e', 'trace=open,openat,openat2', '-o', trace, HELPER, ...args]]
    : [HELPER, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const opens =
        hasStrace && existsSync(trace)
          ? readFileSync(trace, 'utf8')
              .split('\n')
              .filter((l) => /open/.test(l))
          : [];
      resolve({ code, stdout, stderr, opens });
    });
  });
}

/** The opens of `path` that were more than a lookup (anything but O_PATH). */
function ioOpensOf(outcome: Outcome, path: string): string[] {
  return outcome.opens.filter((l) => l.includes(`"${path}"`) && !l.includes('O_PATH'));
}

let dir = '';
let loop = '';
let image = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'diskdelta-helper-test-'));
  if (!isRoot) return;
  image = join(dir, 'disk.img');
  writeFileSync(image, Buffer.alloc(8 * 2 ** 20, 7));
  const l = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' });
  if (l.status === 0) loop = l.stdout.trim();
});

after(() => {
  if (loop) spawnSync('losetup', ['-d', loop]);
  rmSync(dir, { recursive: true, force: true });
});

describe('the helper refuses, with a message and nothing opened', () => {
  const refusals: {
    name: string;
    args: () => string[];
    code: number;
    message: RegExp;
    path?: () => string;
    env?: () => NodeJS.ProcessEnv;
  }[] = [
    { name: 'a regular file', args: () => ['open-ro', join(dir, 'plain')], code: HX.refused, message: /a device is named \/dev\/NAME/ },
    {
      name: 'a regular file under /dev',
      args: () => ['open-ro', devFile],
      code: HX.refused,
      message: /a regular file, not a block device/,
      path: () => devFile,
    },
    { name: 'a symlink to a device', args: () => ['open-ro', devLink], code: HX.refused, message: /symbolic link/, path: () => devLink },
    {
      name: 'a character device',
      args: () => ['open-ro', '/dev/null'],
      code: HX.refused,
      message: /a character device, not a block device/,
      path: () => '/dev/null',
    },
    { name: '.. tricks', args: () => ['open-ro', `/dev/../${loop.slice(1)}`], code: HX.refused, message: /no '\.\.'/ },
    { name: 'a sub-folder of /dev', args: () => ['open-ro', '/dev/mapper/../loop0'], code: HX.refused, message: /no sub-folders/ },
    { name: 'a write request (open-rw)', args: () => ['open-rw', loop], code: HX.usage, message: /opens nothing writable/ },
    { name: 'a write request (write)', args: () => ['write', loop], code: HX.usage, message: /opens nothing writable/ },
    { name: 'a write request (extra operand)', args: () => ['open-ro', loop, 'rw'], code: HX.usage, message: /takes exactly 1 operand/ },
    { name: 'a write request (flag)', args: () => ['--write', 'open-ro', loop], code: HX.usage, message: /opens nothing writable/ },
    { name: 'argv it does not know', args: () => ['frobnicate', loop], code: HX.usage, message: /unknown verb 'frobnicate'/ },
    // smart-log sends an NVMe admin command: no other device may receive that ioctl number.
    {
      name: 'smart-log of a block device that is not NVMe (a loop)',
      args: () => ['smart-log', loop],
      code: HX.refused,
      message: /is not an NVMe namespace/,
      path: () => loop,
    },
    {
      name: 'smart-log of a character device that is not NVMe',
      args: () => ['smart-log', '/dev/null'],
      code: HX.refused,
      message: /is not an NVMe controller \(its class is 'mem'\)/,
      path: () => '/dev/null',
    },
    {
      name: 'smart-log of a symlink',
      args: () => ['smart-log', devLink],
      code: HX.refused,
      message: /neither an NVMe/,
      path: () => devLink,
    },
    {
      name: 'smart-log of a regular file under /dev',
      args: () => ['smart-log', devFile],
      code: HX.refused,
      message: /neither an NVMe/,
      path: () => devFile,
    },
    { name: 'smart-log with .. tricks', args: () => ['smart-log', '/dev/../etc/passwd'], code: HX.refused, message: /no '\.\.'/ },
    { name: 'smart-log with two operands', args: () => ['smart-log', loop, 'x'], code: HX.usage, message: /takes exactly 1 operand/ },
    // smart-ata starts smartctl as root on /dev/NAME: only the kernel's own whole SCSI/ATA disk of that name.
    {
      name: 'smart-ata of a block device that is not SATA/SCSI (a loop)',
      args: () => ['smart-ata', loop],
      code: HX.refused,
      message: /not a whole SATA\/SCSI disk's name/,
      path: () => loop,
    },
    {
      name: 'smart-ata of a loop device given an sd name',
      args: () => ['smart-ata', sdNode],
      code: HX.refused,
      message: /is the kernel's 'loop\d+', not sd/,
      path: () => sdNode,
    },
    {
      name: 'smart-ata of a symlink named like a disk',
      args: () => ['smart-ata', sdLink],
      code: HX.refused,
      message: /a symbolic link/,
      path: () => sdLink,
    },
    {
      name: 'smart-ata of a regular file under /dev named like a disk',
      args: () => ['smart-ata', sdFile],
      code: HX.refused,
      message: /not a block device/,
      path: () => sdFile,
    },
    {
      name: 'smart-ata of a character device',
      args: () => ['smart-ata', '/dev/null'],
      code: HX.refused,
      message: /not a whole SATA\/SCSI disk's name/,
    },
    { name: 'smart-ata with .. tricks', args: () => ['smart-ata', '/dev/../etc/passwd'], code: HX.refused, message: /no '\.\.'/ },
    {
      name: 'smart-ata with a sub-folder trick',
      args: () => ['smart-ata', '/dev/sda/../../etc/passwd'],
      code: HX.refused,
      message: /no sub-folders/,
    },
    { name: 'smart-ata with two operands', args: () => ['smart-ata', sdNode, '-s'], code: HX.usage, message: /takes exactly 1 operand/ },
    { name: 'no verb', args: () => [], code: HX.usage, message: /Usage: pkexec/ },
    {
      name: 'a file not created by DiskDelta',
      args: () => ['loop-attach', image],
      code: HX.refused,
      message: /not a file DiskDelta created/,
      path: () => image,
    },
    {
      name: 'one owned by another user',
      args: () => ['loop-attach', ownFile],
      code: HX.refused,
      message: /belongs to uid 0, not to the caller \(uid 65534\)/,
      path: () => ownFile,
      env: () => ({ PKEXEC_UID: '65534' }),
    },
    {
      name: 'a DiskDelta file reached through a symlinked folder',
      args: () => ['loop-attach', join(dir, 'linked', '.diskdelta-1-a.tmp')],
      code: HX.refused,
      message: /is a link or not a folder/,
    },
    {
      name: 'a DiskDelta-named symlink',
      args: () => ['loop-attach', fileLink],
      code: HX.refused,
      message: /symbolic link/,
      path: () => fileLink,
    },
    {
      name: 'a DiskDelta file with a second hard link',
      args: () => ['loop-attach', hardFile],
      code: HX.refused,
      message: /other hard links/,
      path: () => hardFile,
    },
    {
      name: 'a DiskDelta-named folder',
      args: () => ['loop-attach', ownDir],
      code: HX.refused,
      message: /not a regular file/,
      path: () => ownDir,
    },
    ...(
      [
        [
          'a cipher it does not know',
          'aes-ecb',
          '256',
          '512',
          'none',
          /refusing cipher 'aes-ecb' with key size '256': the known ones are aes-xts-plain64 256/,
        ],
        ['a key size the cipher is not offered with', 'aes-xts-plain64', '128', '512', 'none', /refusing cipher .* key size '128'/],
        [
          'a sector size dm-crypt plain mode is not run with',
          'aes-xts-plain64',
          '512',
          '1024',
          'none',
          /refusing sector size '1024': 512 or 4096/,
        ],
        [
          'a dm-crypt flag that is not a performance flag',
          'aes-xts-plain64',
          '512',
          '512',
          'same_cpu_crypt,allow_discards',
          /refusing flag 'allow_discards'/,
        ],
        ['a flag given twice', 'aes-xts-plain64', '512', '4096', 'no_read_workqueue,no_read_workqueue', /given twice/],
      ] as const
    ).map(([name, cipher, key, sector, flags, message]) => ({
      name: `crypt-setup: ${name}`,
      args: () => ['crypt-setup', ownFile, cipher, key, sector, flags],
      code: HX.refused,
      message,
      path: () => ownFile,
    })),
    {
      name: 'crypt-setup: a file not created by DiskDelta',
      args: () => ['crypt-setup', image, 'aes-xts-plain64', '512', '512', 'none'],
      code: HX.refused,
      message: /not a file DiskDelta created/,
      path: () => image,
    },
    {
      name: "crypt-setup: another user's DiskDelta file",
      args: () => ['crypt-setup', ownFile, 'aes-xts-plain64', '512', '512', 'none'],
      code: HX.refused,
      message: /belongs to uid 0, not to the caller \(uid 65534\)/,
      path: () => ownFile,
      env: () => ({ PKEXEC_UID: '65534' }),
    },
    {
      name: 'crypt-setup: too few operands',
      args: () => ['crypt-setup', ownFile, 'aes-xts-plain64'],
      code: HX.usage,
      message: /crypt-setup takes exactly 5 operands \(FILE CIPHER KEY_BITS SECTOR_BYTES FLAGS\), got 2/,
    },
    ...(['loop-attach', 'crypt-setup'] as const).map((verb) => ({
      name: `${verb}: the caller's own DiskDelta file in a folder the caller may not enter (root's 0700)`,
      args: () => (verb === 'loop-attach' ? [verb, hiddenFile] : [verb, hiddenFile, 'aes-xts-plain64', '512', '512', 'none']),
      code: HX.refused,
      message: /the caller \(uid 65534\) may not look inside a folder on the way to it/,
      path: () => hiddenFile,
      env: () => ({ PKEXEC_UID: '65534' }),
    })),
    {
      name: 'record-accesses: a relative folder',
      args: () => ['record-accesses', 'tmp'],
      code: HX.refused,
      message: /give the absolute path of a folder/,
    },
    {
      name: "record-accesses: a folder the caller may not reach (inside root's 0700)",
      args: () => ['record-accesses', join(dir, 'root-only', 'inner')],
      code: HX.refused,
      message: /the caller may not reach it/,
      env: () => ({ PKEXEC_UID: '65534' }),
    },
    ...['/proc', '/sys', '/dev'].map((folder) => ({
      name: `record-accesses: ${folder}, a filesystem without a disk`,
      args: () => ['record-accesses', folder],
      code: HX.refused,
      message: /which has no disk under it/,
    })),
    {
      name: 'a malformed PKEXEC_UID',
      args: () => ['loop-attach', ownFile],
      code: HX.refused,
      message: /PKEXEC_UID is malformed/,
      env: () => ({ PKEXEC_UID: '0; rm' }),
    },
  ];
  let devFile = '';
  let devLink = '';
  let sdNode = '';
  let sdLink = '';
  let sdFile = '';
  let ownFile = '';
  let fileLink = '';
  let hardFile = '';
  let ownDir = '';
  let hiddenFile = '';
  before(() => {
    if (!isRoot || !loop) return;
    // The fixtures' folder may be entered by anyone (the callers below are uid 65534), but for
    // root-only/, which only root may enter: the helper must look with the caller's permissions.
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'root-only'), { mode: 0o700 });
    mkdirSync(join(dir, 'root-only', 'inner'));
    hiddenFile = join(dir, 'root-only', '.diskdelta-secret.tmp');
    writeFileSync(hiddenFile, Buffer.alloc(1 << 20));
    chownSync(hiddenFile, 65534, 65534);
    // /dev is root's: these fixtures carry a unique name and go in after().
    // Named like SATA disks (sd + four letters from the pid, so parallel runs do not collide).
    const letters = (n: number) => [0, 1, 2].map((i) => String.fromCharCode(97 + (Math.floor(n / 26 ** i) % 26))).join('');
    const sdName = (kind: string) => `/dev/sd${letters(process.pid)}${kind}`;
    const [sdNodeName, sdLinkName, sdFileName] = [sdName('n'), sdName('l'), sdName('f')];
    // A block node of the loop's own major:minor (glibc's dev_t split), given a SATA disk's name.
    const rdev = statSync(loop).rdev;
    const [major, minor] = [Math.floor(rdev / 256) & 0xfff, (rdev & 0xff) | ((rdev >> 12) & ~0xff)];
    const m = spawnSync('mknod', [sdNodeName, 'b', String(major), String(minor)], { timeout: 10_000 });
    if (m.status === 0) sdNode = sdNodeName;
    symlinkSync(loop, sdLinkName);
    sdLink = sdLinkName;
    writeFileSync(sdFileName, 'not a device');
    sdFile = sdFileName;
    devFile = `/dev/diskdelta-test-${process.pid}`;
    devLink = `/dev/diskdelta-test-link-${process.pid}`;
    writeFileSync(devFile, 'not a device');
    symlinkSync(loop, devLink);
    writeFileSync(join(dir, 'plain'), 'x');
    ownFile = join(dir, '.diskdelta-1-own.tmp');
    writeFileSync(ownFile, Buffer.alloc(1 << 20));
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', '.diskdelta-1-a.tmp'), Buffer.alloc(1 << 20));
    symlinkSync(join(dir, 'real'), join(dir, 'linked'));
    fileLink = join(dir, '.diskdelta-1-link.tmp');
    symlinkSync(ownFile, fileLink);
    hardFile = join(dir, '.diskdelta-1-hard.tmp');
    writeFileSync(hardFile, Buffer.alloc(1 << 20));
    linkSync(hardFile, join(dir, 'second-name'));
    ownDir = join(dir, '.diskdelta-1-dir.tmp');
    mkdirSync(ownDir);
  });
  after(() => {
    if (devFile) rmSync(devFile, { force: true });
    if (devLink) rmSync(devLink, { force: true });
    for (const p of [sdNode, sdLink, sdFile]) if (p) rmSync(p, { force: true });
  });

  for (const r of refusals) {
    test(r.name, async (t) => {
      if (!isRoot || !loop) return t.skip('needs root and a loop device (the helper runs as root)');
      const out = await runHelper(r.args(), r.env?.());
      assert.equal(out.code, r.code, `exit code; stderr: ${out.stderr}`);
      assert.match(out.stderr, r.message);
      assert.match(out.stderr, /nothing was (opened|done|read)|Usage/, 'says that nothing was opened');
      assert.equal(out.stdout, '', 'nothing passed back on the socket');
      if (!hasStrace) return t.diagnostic('strace missing: opens not traced');
      for (const p of [r.path?.(), loop, ...r.args().filter((a) => a.startsWith('/'))].filter((x): x is string => !!x)) {
        assert.deepEqual(ioOpensOf(out, p), [], `${p} was not opened for I/O`);
      }
    });
  }

  test('not started as root: refuses before looking at argv', async (t) => {
    if (!isRoot || !loop) return t.skip('needs root (to run the helper as nobody)');
    const helper = reachableCopy(HELPER); // a checkout in a folder nobody may not enter: a staged copy
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', helper, 'open-ro', loop], { encoding: 'utf8' });
    assert.equal(r.status, HX.notRoot);
    assert.match(r.stderr, /must run as root, started through pkexec/);
  });
});

describe('the helper does its verbs', () => {
  test('open-ro passes a descriptor back for a loop device, read-only and O_DIRECT', async (t) => {
    if (!isRoot || !loop) return t.skip('needs root and a loop device');
    const out = await runHelper(['open-ro', loop]);
    assert.equal(out.code, HX.ok, out.stderr);
    const reply = JSON.parse(out.stdout) as { device: string; bytes: number; sector: number };
    assert.deepEqual(reply, { device: loop, bytes: 8 * 2 ** 20, sector: 512 });
    if (!hasStrace) return t.diagnostic('strace missing: open flags not traced');
    const opens = out.opens.filter((l) => l.includes('"/proc/self/fd/'));
    assert.ok(
      opens.some((l) => /O_RDONLY\|.*O_DIRECT/.test(l)),
      `reopened O_RDONLY|O_DIRECT: ${opens.join('\n')}`,
    );
  });

  test("drop-caches: one write, to the kernel's drop_caches knob, and nothing else opened for writing", async (t) => {
    if (!isRoot) return t.skip('needs root');
    const out = await runHelper(['drop-caches']);
    assert.equal(out.code, HX.ok, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), { dropped: 'pagecache+dentries+inodes' });
    if (!hasStrace) return t.diagnostic('strace missing: opens not traced');
    const writable = out.opens.filter((l) => /O_WRONLY|O_RDWR|O_CREAT/.test(l));
    assert.equal(writable.length, 1, writable.join('\n'));
    assert.match(writable[0]!, /"\/proc\/sys\/vm\/drop_caches", O_WRONLY/);
  });

  test("smart-ata on a real SATA/SCSI disk: smartctl's JSON for that disk, nothing else", async (t) => {
    if (!isRoot) return t.skip('needs root');
    const disk = ['sda', 'sdb', 'sdc'].find((d) => existsSync(`/sys/block/${d}`));
    if (!disk) return t.skip('no SATA/SCSI disk (/sys/block/sd[abc]) on this machine (e2e/sata-health-lab.test.ts reads one in a guest)');
    if (!existsSync('/usr/sbin/smartctl')) return t.skip('smartmontools is not installed (/usr/sbin/smartctl)');
    const out = await runHelper(['smart-ata', `/dev/${disk}`]);
    const json = JSON.parse(out.stdout) as { device?: { name?: string } };
    assert.equal(json.device?.name, `/dev/${disk}`, out.stderr);
  });

  test('a device that vanished: exit 4 and says so', async (t) => {
    if (!isRoot) return t.skip('needs root');
    const out = await runHelper(['open-ro', '/dev/loop-diskdelta-gone']);
    assert.equal(out.code, HX.vanished);
    assert.match(out.stderr, /No such file or directory/);
    assert.equal(out.stdout, '');
  });

  test("loop-attach: a read-only, self-clearing loop over the caller's own DiskDelta file", async (t) => {
    if (!isRoot || !loop) return t.skip('needs root and loop devices');
    const file = join(dir, '.diskdelta-2-attach.tmp');
    writeFileSync(file, Buffer.alloc(4 << 20, 1));
    chownSync(file, 65534, 65534);
    const out = await runHelper(['loop-attach', file], { PKEXEC_UID: '65534' });
    assert.equal(out.code, HX.ok, out.stderr);
    const reply = JSON.parse(out.stdout) as { device: string; bytes: number };
    assert.match(reply.device, /^\/dev\/loop\d+$/);
    assert.equal(reply.bytes, 4 << 20);
    // The only descriptor went to the socket (which Node's reader closes): autoclear detaches.
    const name = reply.device.slice('/dev/'.length);
    let attached = true;
    for (let i = 0; i < 100 && attached; i++) {
      attached =
        existsSync(`/sys/block/${name}/loop/backing_file`) && readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8').includes(file);
      if (attached) spawnSync('sleep', ['0.1']);
    }
    if (attached) spawnSync('losetup', ['-d', reply.device]);
    assert.equal(attached, false, 'the loop device cleared itself once its last descriptor closed');
  });
});

describe("crypt-setup: a read-only dm-crypt mapping over DiskDelta's own file, gone when its descriptors close", () => {
  const dmAnswers = () => spawnSync('dmsetup', ['version']).status === 0;
  test('where the kernel has no device-mapper: exit 5, says so, nothing attached', async (t) => {
    if (!isRoot) return t.skip('needs root (the helper runs as root)');
    if (dmAnswers()) return t.skip('this kernel has device-mapper: the next test makes a real mapping');
    const file = join(dir, '.diskdelta-3-crypt.tmp');
    writeFileSync(file, Buffer.alloc(4 << 20, 1));
    const out = await runHelper(['crypt-setup', file, 'aes-xts-plain64', '512', '512', 'none']);
    assert.equal(out.code, 5, out.stderr);
    assert.match(out.stderr, /this kernel has no device-mapper .*; nothing was done/);
    assert.equal(out.stdout, '');
    const attached = spawnSync('losetup', ['-j', file], { encoding: 'utf8' }).stdout;
    assert.equal(attached, '', 'no loop device left over the file');
  });

  test('where it has one: the mapping and its loop are passed back, read-only, and removed by the kernel once closed', async (t) => {
    if (!isRoot) return t.skip('needs root (the helper runs as root)');
    if (!dmAnswers())
      return t.skip('this kernel has no device-mapper (dm-mod): the dm-crypt lab (e2e/dm-crypt-lab.test.ts) runs this in a guest');
    const file = join(dir, '.diskdelta-4-crypt.tmp');
    writeFileSync(file, Buffer.alloc(8 << 20, 1));
    const out = await runHelper(['crypt-setup', file, 'aes-xts-plain64', '512', '4096', 'no_read_workqueue']);
    assert.equal(out.code, 0, out.stderr);
    const replies = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { device: string; bytes: number });
    assert.match(replies[0]!.device, /^\/dev\/dm-\d+$/, 'the mapping first');
    assert.match(replies[1]!.device, /^\/dev\/loop\d+$/, 'then the loop beneath');
    assert.doesNotMatch(out.stdout + out.stderr, /[0-9a-f]{64}/, 'no key in anything the helper said');
    // Node's socket reader dropped the descriptors: the kernel removes the mapping, then the loop.
    let left = 'x';
    for (let i = 0; i < 50 && left; i++) {
      left = spawnSync('dmsetup', ['ls'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.startsWith('diskdelta-u0-'))
        .join('\n');
      if (left) spawnSync('sleep', ['0.1']);
    }
    assert.equal(left, '', 'no mapping left');
    assert.equal(spawnSync('losetup', ['-j', file], { encoding: 'utf8' }).stdout, '', 'no loop left');
  });
});

test('no path in the helper opens anything writable (its sources, by their open flags)', () => {
  // Every source the Makefile links into the helper, so a new one cannot escape the check.
  const linked = /^HELPER_SRC := (.+)$/m.exec(readFileSync(join(NATIVE, 'Makefile'), 'utf8'))?.[1]?.split(/\s+/) ?? [];
  assert.ok(linked.includes('src/helper.c') && linked.includes('src/dm-crypt-map.c'), `the helper's sources: ${linked.join(' ')}`);
  const sources = linked.map((f) => [f.replace(/^src\//, ''), readFileSync(join(NATIVE, f), 'utf8')] as const);
  const calls: string[] = [];
  for (const [file, text] of sources) {
    assert.doesNotMatch(text, /\b(fopen|creat|freopen|truncate|ftruncate)\s*\(/, `${file} has no other way to open or write a file`);
    for (const m of text.matchAll(/\bopen(at|at2)?\s*\(([^;]*)\)\s*;?/g)) calls.push(`${file}: ${m[0]}`);
  }
  assert.ok(calls.length >= 5, `found the open calls: ${calls.join('\n')}`);
  for (const call of calls) {
    const writable = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(call);
    // The one write is to the kernel's drop_caches knob, not a device or a file.
    if (writable) assert.match(call, /^helper\.c: open\("\/proc\/sys\/vm\/drop_caches", O_WRONLY \| O_CLOEXEC \| O_NOFOLLOW\)/, call);
  }
});
