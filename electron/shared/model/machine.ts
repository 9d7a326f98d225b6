// Facts about the machine under a measurement. Owned by system/ (issue "Know the machine");
// the shapes other modules rely on. Those stored with a run (the fingerprint, the storage
// stack, the system facts) are zod schemas in schemas.ts, their types inferred there; the
// rest, which no run stores, are here. Unknown facts are null with a reason rather than guessed.

export type { DeviceClass, DeviceFingerprint, FstrimTimerFacts, StackLayer, SystemFacts } from './schemas.ts';
import type { DeviceClass, DeviceFingerprint, StackLayer } from './schemas.ts';

const KIND_WORDS: Record<DeviceClass, string> = {
  HDD: 'HDD',
  'SATA SSD': 'SSD',
  'NVMe SSD': 'SSD',
  USB: 'USB disk',
  virtual: 'virtual disk',
  RAM: 'RAM disk',
  loop: 'loop device',
  unknown: 'disk',
};

/**
 * What a sentence calls a device (a column's heading, "the SSD's"): one rule from its class, the
 * class Overview's badges show. The class decides, not the rotational flag: a virtio disk (vda)
 * reports rotational 1 whatever it sits on and was called "HDD" in the encryption story, a zram
 * device "disk" where Overview said "RAM". The flag is used only where the class is not known (an
 * import that kept the flag alone).
 */
export function deviceKindWord(device: { class: DeviceClass; rotational: boolean | null } | null | undefined): string {
  if (!device) return 'disk';
  if (device.class === 'unknown' && device.rotational === true) return 'HDD';
  return KIND_WORDS[device.class];
}

/**
 * Filesystems that keep their files in memory: no block device under them. The one list: the
 * device class (here), the target's warnings (node/system/fs-warnings.ts) and the stack's
 * reason for no disk (node/system/stack.ts) read it.
 */
export const IN_MEMORY_FS: ReadonlySet<string> = new Set(['tmpfs', 'ramfs', 'devtmpfs']);

/**
 * The class of the device a path's data sits on, in the words the Disks card uses for that
 * device (`diskdelta devices`' CLASS): a filesystem on /dev/loop0 is on a "loop" device, whatever
 * holds its backing file (a tmpfs left no disk to name, and the mounts table said "unknown"
 * beside a card saying "loop"); a tmpfs is "RAM", as zram is; otherwise the disk's own class.
 * Null only where nothing under the path could be read.
 */
export function stackDeviceClass(stack: readonly StackLayer[], device: { class: DeviceClass } | null | undefined): DeviceClass | null {
  // The first layer with a device of its own decides: a loop above the disk that holds its file.
  const first = stack.find((layer) => layer.kind === 'loop' || layer.kind === 'disk');
  if (first?.kind === 'loop') return 'loop';
  if (device) return device.class;
  const mount = stack.find((layer) => layer.kind === 'mount');
  if (mount && IN_MEMORY_FS.has(String(mount.details.fsType))) return 'RAM';
  return null;
}

/** Why a field is null, keyed by field name (e.g. { serial: "no vpd_pg80 in sysfs" }). */
export type Reasons = Record<string, string>;

/** What the block layer says about discards (TRIM/UNMAP) for one queue. */
export interface DiscardSupport {
  /** queue/discard_max_bytes > 0: the kernel will send discards down this queue. */
  supported: boolean | null;
  granularityBytes: number | null;
  maxBytes: number | null;
  maxHwBytes: number | null;
}

/** Everything `diskdelta devices` shows for one block device. */
export interface BlockDeviceInfo extends DeviceFingerprint {
  kind: 'disk' | 'partition';
  devNumber: string | null; // "8:0"
  logicalBlockSize: number | null;
  physicalBlockSize: number | null;
  removable: boolean | null;
  readOnly: boolean | null;
  scheduler: string | null; // the active one, e.g. "mq-deadline"
  discard: DiscardSupport;
  partitions: string[];
  /** Who holds each partition (dm-crypt, LVM, md), e.g. { sda2: ["dm-0"] }. */
  partitionHolders?: Record<string, string[]>;
  holders: string[];
  slaves: string[];
  /** The device-mapper name (dm-*), the loop backing file (loop*), when they apply. */
  dmName?: string | null;
  loopBackingFile?: string | null;
}
