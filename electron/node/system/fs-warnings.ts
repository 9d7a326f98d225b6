// Warnings a storage stack allows before anything is measured: filesystems that compress,
// cache or do not honour O_DIRECT, and loop devices that read through the page cache. Each
// says where the figure would really come from.
import type { Warning } from '../../shared/model/results.ts';
import { IN_MEMORY_FS, type StackLayer } from '../../shared/model/machine.ts';

const NETWORK_FS = new Set([
  'nfs',
  'nfs4',
  'cifs',
  'smb3',
  'smbfs',
  '9p',
  'ceph',
  'glusterfs',
  'afs',
  'virtiofs',
  'lustre',
  'fuse.sshfs',
  'fuse.rclone',
  'fuse.s3fs',
  'fuse.glusterfs',
]);
const COMPRESSED_RO_FS = new Set(['squashfs', 'erofs', 'cramfs']);

/** The warnings of one stack, in file → disk order. */
export function stackWarnings(layers: StackLayer[]): Warning[] {
  const warnings: Warning[] = [];
  for (const layer of layers) {
    if (layer.kind === 'mount') warnings.push(...mountWarnings(layer));
    // discard-cost --remount's setting, not the user's (system/remount-records.ts).
    if (layer.kind === 'mount' && layer.details.discardRemountedByPid != null && layer.reasons?.onlineDiscard)
      warnings.push({ code: 'discard-remounted', message: layer.reasons.onlineDiscard });
    if (layer.kind === 'loop' && layer.details.directIo === false) {
      warnings.push({
        code: 'loop-buffered',
        message: `${layer.name} reads its backing file ${String(layer.details.backingFile)} through the page cache (direct I/O off): data may come from RAM even when the filesystem above uses O_DIRECT. Attach it with \`losetup --direct-io=on\` to measure the disk.`,
      });
    }
  }
  return warnings;
}

function mountWarnings(layer: StackLayer): Warning[] {
  const fs = String(layer.details.fsType ?? '');
  const at = `${layer.name} (${fs})`;
  if (IN_MEMORY_FS.has(fs)) {
    return [
      {
        code: 'fs-in-memory',
        message: `${at} keeps files in RAM: there is no disk below and O_DIRECT bypasses no cache, so results are memory speed, not disk speed.`,
      },
    ];
  }
  if (fs === 'zfs') {
    return [
      {
        code: 'fs-zfs',
        message: `${at}: ZFS caches reads in its ARC (RAM), may compress the dataset, and honours O_DIRECT only from OpenZFS 2.3 on, so reads may come from RAM.`,
      },
    ];
  }
  if (NETWORK_FS.has(fs)) {
    return [
      {
        code: 'fs-network',
        message: `${at} is a network filesystem: results measure the network and the server's caches, not a local disk; O_DIRECT is honoured only partly, if at all.`,
      },
    ];
  }
  if (fs === 'fuseblk' || fs === 'fuse' || fs.startsWith('fuse.')) {
    const which =
      fs === 'fuseblk'
        ? 'a FUSE block filesystem (NTFS-3G or exFAT-FUSE)'
        : `a FUSE filesystem (${fs.replace(/^fuse\.?/, '') || 'unknown daemon'})`;
    return [
      {
        code: 'fs-fuse',
        message: `${at} is ${which}: every I/O goes through a user-space daemon and the page cache, and O_DIRECT is usually not passed through, so results measure the daemon and RAM.`,
      },
    ];
  }
  if (fs === 'overlay') {
    return [
      {
        code: 'fs-overlay',
        message: `${at}: overlayfs reads from the lower layers and copies a file up to the upper layer on first write; results depend on those filesystems and O_DIRECT may not reach them.`,
      },
    ];
  }
  if (fs === 'ecryptfs') {
    return [
      {
        code: 'fs-no-direct-io',
        message: `${at}: eCryptfs does not support O_DIRECT; every I/O goes through its page cache and its cipher.`,
      },
    ];
  }
  if (COMPRESSED_RO_FS.has(fs)) {
    return [
      {
        code: 'fs-compresses',
        message: `${at} is a compressed read-only filesystem: reads decompress through the page cache and do not show the disk's speed.`,
      },
    ];
  }
  if (fs === 'btrfs' && layer.details.compress) {
    return [
      {
        code: 'fs-compresses',
        message: `${at} is mounted with compress=${String(layer.details.compress)}: compressed extents bypass O_DIRECT (btrfs falls back to buffered I/O), and compressible data shrinks, so figures can exceed what the disk does.`,
      },
    ];
  }
  return [];
}

/** Whether O_DIRECT results on this stack can be taken as disk results (false: a cache can serve them). */
export function directIoTrusted(layers: StackLayer[]): boolean {
  return stackWarnings(layers).length === 0;
}
