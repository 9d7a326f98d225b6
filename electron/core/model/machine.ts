// Facts about the machine under a measurement. Owned by system/ (issue "Know the machine");
// the shapes here are the contract other modules rely on. Unknown facts are null with a
// reason rather than guessed.

export type DeviceClass = 'HDD' | 'SATA SSD' | 'NVMe SSD' | 'USB' | 'virtual' | 'RAM' | 'loop' | 'unknown';

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

export interface DeviceFingerprint {
  name: string; // kernel name, e.g. "sda", "nvme0n1", "loop3"
  model: string | null;
  serial: string | null;
  sizeBytes: number | null;
  rotational: boolean | null;
  class: DeviceClass;
  transport: string | null; // sata, nvme, usb, virtio, loop, zram …
  /** Negotiated link ceiling in bytes per second, e.g. 300e6 for SATA 2. */
  linkCeilingBytesPerSec: number | null;
  linkDescription: string | null; // e.g. "SATA 3.0 Gb/s"
  /** Why a null field is unknown (added by system/, optional). */
  reasons?: Reasons;
}

export interface StackLayer {
  kind: 'file' | 'mount' | 'dm-crypt' | 'lvm' | 'dm' | 'partition' | 'loop' | 'disk' | 'other';
  name: string;
  details: Record<string, string | number | boolean | null>;
  encrypted?: boolean;
  discardPasses?: boolean | null;
  /** Link ceiling of a disk layer in bytes per second (disk layers only). */
  linkCeilingBytesPerSec?: number | null;
  /** Why a null detail is unknown, keyed by detail name. */
  reasons?: Reasons;
}

export interface SystemFacts {
  kernel: string | null;
  cpuModel: string | null;
  cores: number | null;
  cryptoFlags: string[]; // e.g. ["aes", "vaes"]
  memoryBytes: number | null;
  /** Logical CPUs (hardware threads); `cores` counts physical cores. */
  threads?: number | null;
  arch?: string | null;
  fstrimTimer?: FstrimTimerFacts;
  reasons?: Reasons;
}

// ---- Additions (issue "Know the machine"): optional fields and new types only. ----

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

/** Whether periodic TRIM is scheduled, read from systemd unit symlinks (not systemctl). */
export interface FstrimTimerFacts {
  /** A timers.target.wants/fstrim.timer link exists in /etc, /usr/lib or /lib systemd dirs. */
  enabled: boolean | null;
  /** /run/systemd/system exists: systemd is the running init, so an enabled timer fires. */
  systemdRunning: boolean | null;
  reason?: string;
}
