// Facts about the machine under a measurement. Owned by system/ (issue "Know the machine");
// the shapes here are the contract other modules rely on. Unknown facts are null with a
// reason rather than guessed.

export type DeviceClass = 'HDD' | 'SATA SSD' | 'NVMe SSD' | 'USB' | 'virtual' | 'RAM' | 'loop' | 'unknown';

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
}

export interface StackLayer {
  kind: 'file' | 'mount' | 'dm-crypt' | 'lvm' | 'dm' | 'partition' | 'loop' | 'disk' | 'other';
  name: string;
  details: Record<string, string | number | boolean | null>;
  encrypted?: boolean;
  discardPasses?: boolean | null;
}

export interface SystemFacts {
  kernel: string | null;
  cpuModel: string | null;
  cores: number | null;
  cryptoFlags: string[]; // e.g. ["aes", "vaes"]
  memoryBytes: number | null;
}
