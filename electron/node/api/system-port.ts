// The Overview page's picture of the machine, assembled from system/: the disks, the mounted
// file systems with their encryption and TRIM state, and the folders a run could target.
import { homedir, tmpdir } from 'node:os';
import { inspectPath, listBlockDevices, readSystemFacts, describeTarget } from '../system/index.ts';
import { allOptions, readMountinfo, type MountEntry } from '../system/mountinfo.ts';
import type { DeviceFingerprint } from '../../shared/model/machine.ts';
import type { SystemOverview } from '../../shared/contract/contract.ts';
import type { SystemPort } from './handlers.ts';
import { deviceMapperMissing } from '../crypto/throwaway-held.ts';

/** File systems a person stores data on; proc, cgroup, overlay layers and the like are noise here. */
const DATA_FS = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'f2fs',
  'vfat',
  'exfat',
  'ntfs',
  'ntfs3',
  'fuseblk',
  'zfs',
  'jfs',
  'reiserfs',
  'nilfs2',
  'bcachefs',
  'tmpfs',
]);
const HIDDEN_PREFIXES = ['/proc', '/sys', '/dev', '/run/credentials', '/boot/efi', '/snap'];

function isInteresting(m: MountEntry): boolean {
  if (!DATA_FS.has(m.fsType)) return false;
  if (HIDDEN_PREFIXES.some((p) => m.mountPoint === p || m.mountPoint.startsWith(p + '/'))) return false;
  // tmpfs only where people put files (/tmp, /dev/shm is hidden above): it shows what RAM does.
  if (m.fsType === 'tmpfs' && m.mountPoint !== '/tmp') return false;
  return true;
}

function fingerprint(d: DeviceFingerprint): DeviceFingerprint {
  const { name, model, serial, sizeBytes, rotational, class: cls, transport, linkCeilingBytesPerSec, linkDescription } = d;
  return { name, model, serial, sizeBytes, rotational, class: cls, transport, linkCeilingBytesPerSec, linkDescription };
}

export async function systemOverview(): Promise<SystemOverview> {
  const notes: string[] = [];
  const [facts, devices, mountinfo, encryptionUnavailable] = await Promise.all([
    readSystemFacts().catch((e: unknown) => (notes.push(`CPU and memory facts unreadable: ${String(e)}`), null)),
    listBlockDevices().catch((e: unknown) => (notes.push(`block devices unreadable: ${String(e)}`), [])),
    readMountinfo('/'),
    deviceMapperMissing(),
  ]);
  if (mountinfo.value === null) notes.push(`mounts unreadable: ${mountinfo.reason}`);
  const entries = (mountinfo.value ?? []).filter(isInteresting);
  // Several entries for one mount point (bind mounts, remounts): the last one is in effect.
  const byPoint = new Map(entries.map((m) => [m.mountPoint, m]));
  const mounts = await Promise.all(
    [...byPoint.values()].slice(0, 24).map(async (m) => {
      const report = await inspectPath(m.mountPoint).catch(() => null);
      return {
        path: m.mountPoint,
        device: m.source || null,
        fsType: m.fsType,
        options: allOptions(m),
        encryptedLayers: report ? report.encryptedLayers : null,
        onlineDiscard: report ? report.trim.onlineDiscard : null,
        trimReachesDisk: report ? report.trim.reachesDisk : null,
        trimSeen: null,
        diskClass: report?.deviceClass ?? null,
      };
    }),
  );
  const writable = mounts.filter((m) => !m.options.includes('ro')).map((m) => m.path);
  const suggestedTargets = [...new Set([...writable, homedir(), tmpdir()])];
  return {
    facts,
    disks: devices.filter((d) => d.kind === 'disk').map(fingerprint),
    mounts,
    suggestedTargets,
    encryptionUnavailable,
    notes,
  };
}

export const systemPort: SystemPort = {
  overview: systemOverview,
  async describeTarget(path) {
    const described = await describeTarget(path);
    return {
      path,
      device: described.target.device ? fingerprint(described.target.device) : null,
      stack: described.target.stack ?? [],
      warnings: described.warnings,
    };
  },
};
