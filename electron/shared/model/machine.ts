// Facts about the machine under a measurement. Owned by system/ (issue "Know the machine");
// the shapes other modules rely on. Those stored with a run (the fingerprint, the storage
// stack, the system facts) are zod schemas in schemas.ts, their types inferred there; the
// rest, which no run stores, are here. Unknown facts are null with a reason rather than guessed.

export type { DeviceClass, DeviceFingerprint, FstrimTimerFacts, StackLayer, SystemFacts } from './schemas.ts';
import type { DeviceFingerprint } from './schemas.ts';

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
