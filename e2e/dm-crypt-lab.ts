// The dm-crypt lab (../shared/reference/dm-crypt-lab.md): a nested QEMU guest (TCG: there is
// no /dev/kvm here) booting a Debian kernel that is downloaded and extracted, never installed,
// so tests get real device-mapper, dm-crypt, LUKS2 and AF_ALG on a host kernel that has none.
// The guest's userland is the host's own root shared read-only over 9p (cryptsetup, the
// worker, the project's Node are all there unchanged); a second, writable 9p share carries
// the command in and its output out; a sparse file is the guest's disk, its speed fixed by
// QEMU's throttling. Each boot costs ~50 s under emulation: tests combine checks per boot.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This clone, as the guest sees it too (mounted at the same path: see runGuest). */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

/** Outside the clone: the kernel package is 70 MB, extracted ~400 MB, shared by every clone. */
export const LAB_CACHE = process.env['DISKDELTA_LAB_CACHE'] ?? '/var/cache/diskdelta-lab';

/** Modules the initramfs loads to reach the host's root (virtio PCI, virtio-blk, 9p). */
const BOOT_MODULES = ['virtio_pci', 'virtio_blk', '9pnet_virtio', '9p'];

/** Modules a test loads inside the guest (`labModprobe`), for dm-crypt, AF_ALG and ext4. */
export const CRYPT_MODULES = [
  'dm-crypt',
  'xts',
  'aesni-intel',
  'essiv',
  'cbc',
  'sha256_generic',
  'algif_skcipher',
  'loop',
  'ext4',
  'serpent-avx2',
  'twofish-avx-x86_64',
  'adiantum',
  'chacha-x86_64',
  'nhpoly1305-avx2',
];

export interface LabKernel {
  version: string;
  /** The extracted package: DIR/boot/vmlinuz-VERSION, DIR/lib/modules/VERSION. */
  dir: string;
  kernel: string;
  initrd: string;
}

function tool(name: string, args: string[] = ['--version']): boolean {
  const r = spawnSync(name, args, { stdio: 'ignore' });
  return r.error === undefined;
}

/** Why the lab cannot run here (a sentence naming what to install), or null when it can. */
export function labUnavailable(): string | null {
  if (process.env['DISKDELTA_SKIP_LAB']) return 'DISKDELTA_SKIP_LAB is set';
  if (!tool('qemu-system-x86_64')) return 'needs qemu-system-x86_64 (Debian qemu-system-x86)';
  if (!existsSync('/bin/busybox') && !existsSync('/usr/bin/busybox'))
    return 'needs a static busybox for the initramfs (Debian busybox-static)';
  if (!tool('cpio')) return 'needs cpio (Debian cpio)';
  if (!tool('depmod', ['-V']) || !tool('modprobe', ['-V'])) return 'needs depmod and modprobe (Debian kmod)';
  if (!tool('cryptsetup')) return 'needs cryptsetup in the shared root (Debian cryptsetup-bin)';
  if (existsSync(LAB_CACHE) ? false : process.getuid?.() !== 0 && !canCreate(LAB_CACHE)) {
    return `cannot create the kernel cache ${LAB_CACHE} (run as root or set DISKDELTA_LAB_CACHE)`;
  }
  return null;
}

function canCreate(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

function run(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd, maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** The Debian kernel package linux-image-amd64 currently names (linux-image-6.1.0-N-amd64). */
function kernelPackage(): string {
  const deps = run('apt-cache', ['depends', 'linux-image-amd64']);
  const m = /Depends:\s*(linux-image-[\w.+-]+)/.exec(deps);
  if (!m?.[1]) throw new Error(`apt-cache depends linux-image-amd64 names no kernel package:\n${deps}`);
  return m[1];
}

/**
 * A lab test file's kernel, or why it has none (the tests skip with that reason): the host's
 * own lacks (labUnavailable), then the kernel prepared once (ensureLabKernel).
 */
export function labKernelOrReason(): { kernel: LabKernel | null; reason: string | null } {
  const reason = labUnavailable();
  if (reason) return { kernel: null, reason };
  try {
    return { kernel: ensureLabKernel(), reason: null };
  } catch (error) {
    return { kernel: null, reason: `cannot prepare the lab kernel: ${(error as Error).message}` };
  }
}

/**
 * Download, extract and prepare the lab kernel and its initramfs once; later calls return the
 * cache. Prepared in a temporary folder and renamed into place, so a concurrent or interrupted
 * preparation never leaves a half-made kernel behind.
 */
export function ensureLabKernel(): LabKernel {
  mkdirSync(LAB_CACHE, { recursive: true });
  const ready = readdirSync(LAB_CACHE)
    .filter((n) => n.startsWith('kernel-') && existsSync(join(LAB_CACHE, n, 'initrd.cpio.gz')))
    .sort();
  const cached = ready.at(-1);
  if (cached) return describeKernel(join(LAB_CACHE, cached));

  let deb = readdirSync(LAB_CACHE).find((n) => /^linux-image-.*\.deb$/.test(n));
  if (!deb) {
    const pkg = kernelPackage();
    // apt-get download writes into the working folder; run as root it warns that _apt cannot
    // reach the folder and downloads unsandboxed, which is fine for a file we only extract.
    run('apt-get', ['download', '-q', pkg], LAB_CACHE);
    deb = readdirSync(LAB_CACHE).find((n) => /^linux-image-.*\.deb$/.test(n));
    if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${LAB_CACHE}`);
  }
  const work = mkdtempSync(join(LAB_CACHE, 'tmp-'));
  try {
    run('dpkg-deb', ['-x', join(LAB_CACHE, deb), work]);
    const version = readdirSync(join(work, 'lib', 'modules'))[0];
    if (!version) throw new Error(`${deb} holds no lib/modules/VERSION`);
    run('depmod', ['-b', work, version]);
    buildInitramfs(work, version);
    const final = join(LAB_CACHE, `kernel-${version}`);
    rmSync(final, { recursive: true, force: true });
    renameSync(work, final);
    return describeKernel(final);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

function describeKernel(dir: string): LabKernel {
  const version = readdirSync(join(dir, 'lib', 'modules'))[0] ?? '';
  return { version, dir, kernel: join(dir, 'boot', `vmlinuz-${version}`), initrd: join(dir, 'initrd.cpio.gz') };
}

/** The guest's /init: modules, the host's root read-only, /run writable, the command, power off. */
function initScript(insmods: string[]): string {
  return `#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
${insmods.join('\n')}
mkdir -p /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 hostroot /newroot || { echo LAB: no hostroot; poweroff -f; }
mount -t proc proc /newroot/proc
mount -t sysfs sys /newroot/sys
mount -t devtmpfs dev /newroot/dev
mount -t tmpfs -o mode=0755 run /newroot/run
mount -t tmpfs tmp /newroot/tmp
mkdir -p /newroot/run/lab
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 lab /newroot/run/lab || { echo LAB: no lab share; poweroff -f; }
chroot /newroot /bin/sh -c 'cd /run/lab && HOME=/run TMPDIR=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin sh ./command.sh > ./output.txt 2>&1; echo $? > ./status.txt; sync'
umount /newroot/run/lab
echo LAB: done
poweroff -f
`;
}

function buildInitramfs(dir: string, version: string): void {
  const staging = join(dir, 'initramfs');
  for (const d of ['bin', 'proc', 'sys', 'dev', 'newroot', 'mods']) mkdirSync(join(staging, d), { recursive: true });
  const busybox = existsSync('/bin/busybox') ? '/bin/busybox' : '/usr/bin/busybox';
  writeFileSync(join(staging, 'bin', 'busybox'), readFileSync(busybox));
  chmodSync(join(staging, 'bin', 'busybox'), 0o755);
  // modprobe resolves the dependency order; the initramfs then insmods copies in that order.
  const plan = run('modprobe', ['-d', dir, '-S', version, '-a', '--show-depends', ...BOOT_MODULES]);
  const insmods: string[] = [];
  for (const line of plan.split('\n')) {
    const m = /^insmod (\S+)/.exec(line.trim());
    if (!m?.[1]) continue;
    const name = m[1].split('/').at(-1) ?? '';
    if (insmods.some((i) => i.endsWith(`/${name}`))) continue;
    writeFileSync(join(staging, 'mods', name), readFileSync(m[1]));
    insmods.push(`insmod /mods/${name}`);
  }
  writeFileSync(join(staging, 'init'), initScript(insmods));
  chmodSync(join(staging, 'init'), 0o755);
  const cpio = spawnSync('sh', ['-c', 'find . | cpio -o -H newc --quiet | gzip -1 > ../initrd.cpio.gz'], {
    cwd: staging,
    encoding: 'utf8',
  });
  if (cpio.status !== 0) throw new Error(`building the initramfs failed: ${cpio.stderr}`);
  rmSync(staging, { recursive: true, force: true });
}

export interface GuestRun {
  /** Shell script run as root inside the guest, in the writable share (cwd), with /run and /tmp writable. */
  script: string;
  /** The guest's disk /dev/vda: an existing image, or a new sparse file of this size in the share. */
  diskImage?: string;
  diskBytes?: number;
  /** QEMU's throttling of the disk (throttling.bps-total), bytes/s; unthrottled when absent. */
  throttleBps?: number;
  /** A second disk /dev/vdb of the same size and throttle (a separate disk for LUKS2, say). */
  secondDisk?: boolean;
  /** The disks take discards (QEMU discard=unmap: holes punched in the image files), as an SSD does. */
  discard?: boolean;
  /**
   * Disks each of its own size and QEMU -drive options (/dev/vda, /dev/vdb, … in order), instead
   * of diskImage/diskBytes/throttleBps/secondDisk: a throttle with bursts per disk, for example.
   */
  disks?: Array<{ bytes: number; options: string }>;
  /**
   * QEMU-emulated NVMe controllers, each with one namespace over a sparse file of `bytes`
   * (/dev/nvme0n1, …, once the guest loads `nvme`); `properties` are -device nvme's own
   * (smart_critical_warning=N, say).
   */
  nvme?: Array<{ bytes: number; serial: string; properties?: string }>;
  /**
   * QEMU-emulated SATA disks on one AHCI controller, each over a sparse file of `bytes` (/dev/sda,
   * … once the guest loads `ahci` and `sd_mod`); QEMU's ATA emulation answers SMART (hw/ide/core.c).
   */
  sata?: Array<{ bytes: number; serial: string }>;
  memoryMiB?: number;
  timeoutMs?: number;
}

export interface GuestResult {
  /** The script's stdout + stderr. */
  output: string;
  /** The script's exit status; null when the guest never finished it. */
  status: number | null;
  /** The serial console (kernel messages, the init's lines). */
  console: string;
  /** From starting QEMU to the script's first line (null: never got there), and to power-off; ms. */
  bootMs: number | null;
  totalMs: number;
  /** The writable share (the script's cwd) — files the script left there; removed by `dispose`. */
  share: string;
  disk: string;
  dispose: () => void;
}

/**
 * What a guest left in its share, read by name ('' when it wrote no such file), and what to quote
 * when it failed: the tail of its console and of its output, its steps and any node deaths.
 */
export function guestFiles(g: GuestResult): { read: (name: string) => string; context: string } {
  const read = (name: string) => (existsSync(join(g.share, name)) ? readFileSync(join(g.share, name), 'utf8') : '');
  const context = `console:\n${g.console.slice(-2000)}\noutput:\n${g.output.slice(-2000)}\nsteps:\n${read('steps.txt')}\n${read('node-deaths.txt')}`;
  return { read, context };
}

/**
 * The guest ran its script to the end and each step's exit status (`<step>.rc`) is 0, a failed
 * one quoted with its `<step>.err`. Returns the share's reader for what comes next.
 */
export function assertStepsOk(g: GuestResult, steps: readonly string[]): (name: string) => string {
  const { read, context } = guestFiles(g);
  assert.equal(g.status, 0, `the guest ran the script to the end; ${context}`);
  for (const step of steps) assert.equal(read(`${step}.rc`).trim(), '0', `${step}: exit status; stderr:\n${read(`${step}.err`)}`);
  return read;
}

/** The shell lines that load the lab kernel's modules inside the guest. */
export function labModprobe(kernel: LabKernel, modules: string[] = CRYPT_MODULES): string {
  return modules.map((m) => `modprobe -d ${kernel.dir} -S ${kernel.version} ${m} 2>/dev/null || echo "LAB: no module ${m}" >&2`).join('\n');
}

/** Boot a guest that runs `script` as root and powers off; resolve with what it printed. */
export async function runInGuest(kernel: LabKernel, opts: GuestRun): Promise<GuestResult> {
  const share = mkdtempSync(join(tmpdir(), 'diskdelta-lab-share-'));
  chmodSync(share, 0o777);
  // `booted` is written first: its modification time (the host's clock, over 9p) ends the boot.
  // The guest mounts its own tmpfs over /tmp and /run, which would hide a clone that lives there
  // (CI clones into /tmp): the project folder is a third share, mounted at its own path.
  const project = `mkdir -p '${PROJECT_ROOT}' && mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 project '${PROJECT_ROOT}' || { echo "LAB: cannot mount the project at ${PROJECT_ROOT}"; exit 97; }`;
  writeFileSync(join(share, 'command.sh'), `set -u\n: > booted\n${project}\n${opts.script}\n`);
  const disk = opts.diskImage ?? join(share, 'disk.img');
  // A disk image of `bytes`, sparse: it costs the host no space until the guest writes it.
  const sparse = (file: string, bytes: number) => {
    writeFileSync(file, '');
    truncateSync(file, bytes);
    return file;
  };
  if (!opts.diskImage) sparse(disk, opts.diskBytes ?? 512 * 1024 * 1024);
  const throttle = `${opts.throttleBps ? `,throttling.bps-total=${opts.throttleBps}` : ''}${opts.discard ? ',discard=unmap' : ''}`;
  const drives = opts.disks ? [] : ['-drive', `file=${disk},if=virtio,format=raw,cache=none${throttle}`];
  for (const [i, d] of (opts.disks ?? []).entries()) {
    const file = sparse(i === 0 ? disk : join(share, `disk${i + 1}.img`), d.bytes);
    drives.push('-drive', `file=${file},if=virtio,format=raw,cache=none${d.options ? `,${d.options}` : ''}`);
  }
  for (const [i, n] of (opts.nvme ?? []).entries()) {
    const file = sparse(join(share, `nvme${i}.img`), n.bytes);
    drives.push('-drive', `file=${file},if=none,id=nvm${i},format=raw,cache=none`);
    drives.push('-device', `nvme,serial=${n.serial},drive=nvm${i}${n.properties ? `,${n.properties}` : ''}`);
  }
  if (opts.sata?.length) drives.push('-device', 'ahci,id=ahci');
  for (const [i, d] of (opts.sata ?? []).entries()) {
    const file = sparse(join(share, `sata${i}.img`), d.bytes);
    drives.push('-drive', `file=${file},if=none,id=sata${i},format=raw,cache=none`);
    drives.push('-device', `ide-hd,drive=sata${i},bus=ahci.${i},serial=${d.serial}`);
  }
  if (opts.secondDisk) {
    const second = sparse(join(share, 'disk2.img'), opts.diskBytes ?? 512 * 1024 * 1024);
    drives.push('-drive', `file=${second},if=virtio,format=raw,cache=none${throttle}`);
  }
  const args = [
    '-M',
    'pc',
    // AES-NI (emulated) for the guest's dm-crypt. Node 24 in the guest died now and then under this
    // emulation in CI (V8's JIT-page CHECK as SIGTRAP, or SIGSEGV), with PKU on and off; boots of
    // this CPU running V8-heavy work only (`diskdelta --help` 3 times, type stripping of
    // the engine's tests 2, JIT churn 4, and 12 under qemu-user's TCG) saw no death, so no flag of it
    // is known to be the cause: lab-node-death.ts names each death and runs only that one again.
    '-cpu',
    'max',
    '-m',
    String(opts.memoryMiB ?? 1024),
    '-smp',
    '2',
    '-nographic',
    '-no-reboot',
    '-kernel',
    kernel.kernel,
    '-initrd',
    kernel.initrd,
    '-virtfs',
    'local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap',
    '-virtfs',
    `local,path=${share},mount_tag=lab,security_model=none,multidevs=remap`,
    '-virtfs',
    `local,path=${PROJECT_ROOT},mount_tag=project,security_model=none,readonly=on,multidevs=remap`,
    ...drives,
    '-append',
    'console=ttyS0 quiet panic=-1 loglevel=3',
  ];
  const startedAt = Date.now();
  const child = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let consoleText = '';
  child.stdout.on('data', (d: Buffer) => (consoleText += d.toString()));
  child.stderr.on('data', (d: Buffer) => (consoleText += d.toString()));
  // A test runner that exits (or is interrupted) must not leave a guest running.
  const killGuest = () => child.kill('SIGKILL');
  // On SIGTERM/SIGINT (a test runner's timeout, Ctrl-C) 'exit' does not run: stop the guest,
  // then die of the same signal.
  const onSignal = (signal: NodeJS.Signals) => {
    killGuest();
    rmSync(share, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  process.on('exit', killGuest);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const timeoutMs = opts.timeoutMs ?? 300_000;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      consoleText += `\nLAB: guest killed after ${timeoutMs} ms\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      process.off('exit', killGuest);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve();
    });
  });
  const read = (name: string): string => (existsSync(join(share, name)) ? readFileSync(join(share, name), 'utf8') : '');
  const statusText = read('status.txt').trim();
  const booted = existsSync(join(share, 'booted')) ? statSync(join(share, 'booted')).mtimeMs : null;
  return {
    output: read('output.txt'),
    status: statusText === '' ? null : Number(statusText),
    console: consoleText,
    bootMs: booted === null ? null : booted - startedAt,
    totalMs: Date.now() - startedAt,
    share,
    disk,
    dispose: () => rmSync(share, { recursive: true, force: true }),
  };
}
