// The storage stack under a path: file → mount → device-mapper layers (dm-crypt, LVM) or a
// loop device (and, below it, the stack of its backing file) → partition → disk. Every layer
// says whether discards pass it; the disks carry their link ceilings.
import { blkioGroupOf, blkioThrottles, throttleDetails } from './blkio-throttle.ts';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readBlockDevice } from './block-devices.ts';
import { dmKindFromUuid, parseCryptArgs, readDmTables, splitLvmName, type DmTarget } from './dm.ts';
import { allOptions, findMount, optionValue, readMountinfo, type MountEntry } from './mountinfo.ts';
import {
  devNumberOf,
  inRoot,
  isLiveRoot,
  listDir,
  readNumber,
  readText,
  resolveInRoot,
  rootOf,
  type Read,
  type RootOptions,
} from './sysfs.ts';
import { IN_MEMORY_FS, type BlockDeviceInfo, type StackLayer } from '../../shared/model/machine.ts';
import { remountedBy, remountSentence } from './remount-records.ts';

export interface StackReport {
  path: string;
  resolvedPath: string;
  kind: 'folder' | 'block-device' | 'unknown';
  layers: StackLayer[];
  /** The disks at the bottom (several under RAID or an LVM volume group spanning disks). */
  disks: BlockDeviceInfo[];
  /** The mount holding the path, and those holding loop backing files further down. */
  mounts: MountEntry[];
  /** Loop devices on the way, with their direct-I/O setting (off: the backing file's page cache serves reads). */
  loops: Array<{ name: string; directIo: boolean | null }>;
  /** Why the stack stops short of a disk, when it does. */
  unknowns: string[];
}

interface Context {
  root: string;
  report: StackReport;
  dmTables: Read<Map<string, DmTarget[]>> | undefined;
}

const MAX_DEPTH = 8; // loops inside loops are legal; a cycle is not, and this stops one

export async function buildStack(targetPath: string, opts?: RootOptions): Promise<StackReport> {
  const root = rootOf(opts);
  const report: StackReport = {
    path: targetPath,
    resolvedPath: targetPath,
    kind: 'unknown',
    layers: [],
    disks: [],
    mounts: [],
    loops: [],
    unknowns: [],
  };
  const ctx: Context = { root, report, dmTables: undefined };
  const target = await examine(root, targetPath);
  report.resolvedPath = target.resolved;
  report.kind = target.kind;
  if (target.reason) report.unknowns.push(target.reason);
  report.layers.push({ kind: 'file', name: target.resolved, details: { path: targetPath, type: target.kind } });
  if (target.kind === 'block-device' && target.devNumber) {
    const name = await nameFromDevNumber(root, target.devNumber);
    if (name) await descend(ctx, name, 0);
    else report.unknowns.push(`no sysfs entry for device ${target.devNumber}`);
  } else {
    await descendFromPath(ctx, target.resolved, 0);
  }
  return report;
}

async function examine(
  root: string,
  p: string,
): Promise<{ resolved: string; kind: StackReport['kind']; devNumber?: string; reason?: string }> {
  // Live, a relative path is relative to the working folder; in a snapshot, to its root.
  const normalized = isLiveRoot(root) ? path.resolve(p) : path.posix.resolve('/', p);
  try {
    const resolved = isLiveRoot(root) ? await realpath(normalized) : normalized;
    const st = await stat(inRoot(root, resolved));
    if (st.isBlockDevice()) {
      return { resolved, kind: 'block-device', devNumber: devNumberOf(Number(st.rdev)) };
    }
    return { resolved, kind: st.isDirectory() ? 'folder' : 'unknown' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // A snapshot holds sysfs and procfs, not the user's files: a missing path there is expected.
    if (!isLiveRoot(root) && code === 'ENOENT') return { resolved: normalized, kind: 'unknown' };
    return {
      resolved: normalized,
      kind: 'unknown',
      reason: `${normalized} cannot be examined (${code}); the stack below is from its mount point`,
    };
  }
}

/** A block device's kernel name ("loop3", "sda1") from its MAJOR:MINOR, through sysfs; null when sysfs has no entry. */
export async function nameFromDevNumber(root: string, devNumber: string): Promise<string | null> {
  const real = await resolveInRoot(root, `/sys/dev/block/${devNumber}`);
  return real ? path.posix.basename(real) : null;
}

/** A mount's source ("/dev/sda2", "/dev/mapper/vg-root") → kernel name, for mounts whose st_dev is anonymous (btrfs). */
async function nameFromSource(root: string, source: string): Promise<string | null> {
  const mapper = /^\/dev\/mapper\/(.+)$/.exec(source);
  if (mapper) {
    for (const dev of await listDir(root, '/sys/block')) {
      if (dev.startsWith('dm-') && (await readText(root, `/sys/block/${dev}/dm/name`)).value === mapper[1]) return dev;
    }
    return null;
  }
  const plain = /^\/dev\/([\w.+-]+)$/.exec(source);
  if (plain && (await readBlockDevice(plain[1]!, { root }))) return plain[1]!;
  if (isLiveRoot(root) && source.startsWith('/dev/')) {
    try {
      return path.posix.basename(await realpath(source)); // /dev/disk/by-uuid/… links
    } catch {
      return null;
    }
  }
  return null;
}

async function descendFromPath(ctx: Context, resolved: string, depth: number): Promise<void> {
  const { root, report } = ctx;
  const mounts = await readMountinfo(root);
  if (mounts.value === null) {
    report.unknowns.push(mounts.reason);
    return;
  }
  const mount = findMount(mounts.value, resolved);
  if (!mount) {
    report.unknowns.push(`no mount holds ${resolved}`);
    return;
  }
  report.mounts.push(mount);
  const layer = mountLayer(mount);
  // A discard setting DiskDelta put there (discard-cost --remount) is said to be DiskDelta's.
  const by = layer.details.onlineDiscard === null ? null : await remountedBy(root, mount);
  if (by) {
    layer.details.discardRemountedByPid = by.pid;
    layer.details.discardRemountRunning = by.running;
    layer.details.discardOriginal = by.original;
    layer.reasons = { ...layer.reasons, onlineDiscard: remountSentence(mount.mountPoint, String(layer.details.onlineDiscard), by) };
  }
  report.layers.push(layer);
  let name: string | null = null;
  if (mount.major !== 0) name = await nameFromDevNumber(root, `${mount.major}:${mount.minor}`);
  if (!name && mount.source.startsWith('/dev/')) name = await nameFromSource(root, mount.source);
  if (name) await descend(ctx, name, depth);
  else report.unknowns.push(noDeviceReason(mount));
}

function noDeviceReason(mount: MountEntry): string {
  if (mount.fsType === 'zfs') return `ZFS dataset ${mount.source}: the pool's disks are not in sysfs (see \`zpool status\`)`;
  if (IN_MEMORY_FS.has(mount.fsType)) return `${mount.fsType} keeps its files in RAM: there is no disk under it`;
  if (mount.fsType === 'overlay') return "overlayfs: files live on the upper and lower directories' filesystems";
  return `${mount.fsType} mount of '${mount.source}' has no block device under it`;
}

/** Online discard as mounted: "on", "async", "off", or null where the filesystem decides elsewhere. */
export function onlineDiscard(mount: MountEntry): { value: string | null; reason?: string } {
  const options = allOptions(mount);
  if (mount.fsType === 'zfs') return { value: null, reason: 'ZFS trims per pool (the autotrim property), not per mount' };
  if (IN_MEMORY_FS.has(mount.fsType) || ['proc', 'sysfs', 'overlay'].includes(mount.fsType))
    return { value: null, reason: `${mount.fsType} has no discard option` };
  if (options.includes('nodiscard')) return { value: 'off' };
  const value = optionValue(options, 'discard');
  if (value !== null) return { value: value === '' ? 'on' : value };
  return { value: 'off' };
}

function mountLayer(mount: MountEntry): StackLayer {
  const options = allOptions(mount);
  const discard = onlineDiscard(mount);
  const atime = ['noatime', 'relatime', 'strictatime', 'lazytime'].filter((o) => options.includes(o)).join(',') || null;
  const layer: StackLayer = {
    kind: 'mount',
    name: mount.mountPoint,
    details: {
      fsType: mount.fsType,
      source: mount.source,
      mountPoint: mount.mountPoint,
      fsRoot: mount.fsRoot,
      options: options.join(','),
      readOnly: mount.mountOptions.includes('ro'),
      onlineDiscard: discard.value,
      atime,
      commit: optionValue(options, 'commit'),
      compress: optionValue(options, 'compress-force') ?? optionValue(options, 'compress'),
    },
    // For a mount, "discards pass" means the filesystem sends them itself as files are deleted.
    discardPasses: discard.value === null ? null : discard.value !== 'off',
  };
  if (mount.fsType === 'ecryptfs') layer.encrypted = true;
  if (discard.reason) layer.reasons = { onlineDiscard: discard.reason };
  return layer;
}

async function descend(ctx: Context, name: string, depth: number): Promise<void> {
  const { root, report } = ctx;
  if (depth > MAX_DEPTH) {
    report.unknowns.push(`stack deeper than ${MAX_DEPTH} layers at ${name}; stopped`);
    return;
  }
  const info = await readBlockDevice(name, { root });
  if (!info) {
    report.unknowns.push(`block device ${name} is not in /sys/block`);
    return;
  }
  if (info.kind === 'partition') {
    const disk = await parentDisk(root, name);
    const diskInfo = disk ? await readBlockDevice(disk, { root }) : null;
    report.layers.push({
      kind: 'partition',
      name,
      details: {
        number:
          (await readNumber(root, `/sys/class/block/${name}/partition`)).value ?? (await partitionAttr(root, disk, name, 'partition')),
        startSector: await partitionAttr(root, disk, name, 'start'),
        sizeBytes: info.sizeBytes,
        disk,
      },
      // A partition shares its disk's queue: discards pass exactly when the disk takes them.
      discardPasses: diskInfo?.discard.supported ?? null,
    });
    if (disk) await descend(ctx, disk, depth + 1);
    return;
  }
  switch (info.transport) {
    case 'dm':
      await dmLayer(ctx, info, depth);
      return;
    case 'loop':
      await loopLayer(ctx, info, depth);
      return;
    case 'md': {
      const level = await readText(root, `/sys/block/${name}/md/level`);
      report.layers.push({
        kind: 'other',
        name,
        details: { type: 'md', level: level.value },
        discardPasses: info.discard.supported,
        ...(level.reason ? { reasons: { level: level.reason } } : {}),
      });
      for (const slave of info.slaves) await descend(ctx, slave, depth + 1);
      return;
    }
    default: {
      report.disks.push(info);
      const layer = diskLayer(info);
      Object.assign(layer.details, await deviceThrottle(ctx.root, name));
      report.layers.push(layer);
    }
  }
}

/**
 * The blkio caps set on /sys/block/NAME's device number, as layer details ({} when none): those
 * of this process's group (the worker that measures is its child, in the same group) as the
 * run's, the others as other groups'.
 */
async function deviceThrottle(root: string, name: string): Promise<Record<string, string | number | null>> {
  const majMin = (await readText(root, `/sys/block/${name}/dev`)).value;
  return majMin ? throttleDetails(await blkioThrottles(root, majMin.trim()), await blkioGroupOf(root)) : {};
}

function diskLayer(info: BlockDeviceInfo): StackLayer {
  const layer: StackLayer = {
    kind: 'disk',
    name: info.name,
    details: {
      class: info.class,
      transport: info.transport,
      model: info.model,
      serial: info.serial,
      sizeBytes: info.sizeBytes,
      rotational: info.rotational,
      link: info.linkDescription,
      scheduler: info.scheduler,
      discardGranularity: info.discard.granularityBytes,
      discardMaxBytes: info.discard.maxBytes,
    },
    discardPasses: info.discard.supported,
    linkCeilingBytesPerSec: info.linkCeilingBytesPerSec,
  };
  if (info.reasons) layer.reasons = { ...info.reasons };
  return layer;
}

async function parentDisk(root: string, partition: string): Promise<string | null> {
  for (const disk of await listDir(root, '/sys/block')) {
    if ((await readText(root, `/sys/block/${disk}/${partition}/partition`)).value !== null) return disk;
  }
  return null;
}

async function partitionAttr(root: string, disk: string | null, partition: string, attr: string): Promise<number | null> {
  if (!disk) return null;
  return (await readNumber(root, `/sys/block/${disk}/${partition}/${attr}`)).value;
}

async function dmLayer(ctx: Context, info: BlockDeviceInfo, depth: number): Promise<void> {
  const { root, report } = ctx;
  const dir = `/sys/block/${info.name}/dm`;
  const dmName = (await readText(root, `${dir}/name`)).value;
  const uuid = (await readText(root, `${dir}/uuid`)).value;
  const kind = dmKindFromUuid(uuid);
  const reasons: Record<string, string> = {};
  // The dm queue's discard limit is the kernel's verdict: dm-crypt only advertises discards
  // when the table has allow_discards, and LVM/linear inherits the limit of what lies below.
  const layer: StackLayer = {
    kind: kind.startsWith('crypt') ? 'dm-crypt' : kind === 'lvm' ? 'lvm' : 'dm',
    name: dmName ?? info.name,
    details: { device: info.name, uuid, sizeBytes: info.sizeBytes },
    discardPasses: info.discard.supported,
  };
  if (layer.kind === 'dm-crypt') {
    layer.encrypted = true;
    layer.details.format = kind === 'crypt-luks2' ? 'LUKS2' : kind === 'crypt-luks1' ? 'LUKS1' : kind === 'crypt-plain' ? 'plain' : null;
  }
  if (layer.kind === 'lvm' && dmName) {
    const split = splitLvmName(dmName);
    layer.details.vg = split?.vg ?? null;
    layer.details.lv = split?.lv ?? null;
  }
  ctx.dmTables ??= await readDmTables(root);
  const table = ctx.dmTables.value && dmName ? ctx.dmTables.value.get(dmName) : undefined;
  if (table) {
    layer.details.targets = [...new Set(table.map((t) => t.type))].join(',');
    const crypt = table.find((t) => t.type === 'crypt');
    if (crypt) {
      const parsed = parseCryptArgs(crypt.args);
      layer.kind = 'dm-crypt';
      layer.encrypted = true;
      if (parsed) {
        layer.details.cipher = parsed.cipher;
        layer.details.keyBits = parsed.keyBits;
        layer.details.cipherKeyBits = parsed.cipherKeyBits;
        layer.details.sectorSize = parsed.sectorSize ?? 512;
        layer.details.flags = parsed.flags.join(' ');
        for (const flag of ['allow_discards', 'same_cpu_crypt', 'submit_from_crypt_cpus', 'no_read_workqueue', 'no_write_workqueue']) {
          layer.details[flag] = parsed.flags.includes(flag);
        }
      }
    }
  } else if (layer.kind === 'dm-crypt') {
    const why = ctx.dmTables.reason ?? `no table for ${dmName ?? info.name} in dmsetup's output`;
    for (const field of ['cipher', 'keyBits', 'flags']) {
      layer.details[field] = null;
      reasons[field] = why;
    }
  }
  if (Object.keys(reasons).length > 0) layer.reasons = reasons;
  report.layers.push(layer);
  for (const slave of info.slaves) await descend(ctx, slave, depth + 1);
}

async function loopLayer(ctx: Context, info: BlockDeviceInfo, depth: number): Promise<void> {
  const { root, report } = ctx;
  const dir = `/sys/block/${info.name}/loop`;
  const backing = info.loopBackingFile ?? null;
  // " (deleted)" is how the kernel marks a backing file that was unlinked while attached.
  const file = backing?.replace(/ \(deleted\)$/, '') ?? null;
  // Its size against the blocks it holds: holes read as zeros from no disk (bench/result-warnings.ts).
  const held = file === null ? null : await stat(inRoot(root, file)).catch(() => null);
  const dio = await readText(root, `${dir}/dio`);
  const directIo = dio.value === null ? null : dio.value === '1';
  report.loops.push({ name: info.name, directIo });
  const layer: StackLayer = {
    kind: 'loop',
    name: info.name,
    details: {
      backingFile: backing,
      backingFileBytes: held?.size ?? null,
      backingFileAllocatedBytes: held ? held.blocks * 512 : null,
      offset: (await readNumber(root, `${dir}/offset`)).value,
      sizeBytes: info.sizeBytes,
      directIo,
      autoclear: (await readText(root, `${dir}/autoclear`)).value === '1',
      ...(await deviceThrottle(root, info.name)),
    },
    // A loop device takes discards when its backing filesystem can punch holes.
    discardPasses: info.discard.supported,
  };
  const reasons: Record<string, string> = {};
  if (!backing) reasons.backingFile = info.reasons?.loopBackingFile ?? 'no backing file attached';
  if (dio.reason) reasons.directIo = dio.reason;
  if (Object.keys(reasons).length > 0) layer.reasons = reasons;
  report.layers.push(layer);
  if (!file) return;
  report.layers.push({ kind: 'file', name: file, details: { path: file, type: 'loop backing file' } });
  await descendFromPath(ctx, file, depth + 1);
}
