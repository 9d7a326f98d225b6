// Transport and class of a block device from its name and its place in the sysfs device tree
// (the resolved /sys/block/NAME path names every bus between the CPU and the disk).
import type { DeviceClass } from '../../shared/model/machine.ts';

export interface Placement {
  transport: string | null;
  /** The sysfs directory of the bus hop that carries the link speed, when there is one. */
  anchor: string | null;
}

export function placementOf(name: string, sysPath: string | null): Placement {
  if (/^loop\d+$/.test(name)) return { transport: 'loop', anchor: null };
  if (/^zram\d+$/.test(name)) return { transport: 'zram', anchor: null };
  if (/^ram\d+$/.test(name)) return { transport: 'ram', anchor: null };
  if (/^pmem\d+/.test(name)) return { transport: 'pmem', anchor: null };
  if (/^dm-\d+$/.test(name)) return { transport: 'dm', anchor: null };
  if (/^md\d+/.test(name)) return { transport: 'md', anchor: null };
  if (/^nbd\d+$/.test(name)) return { transport: 'nbd', anchor: null };
  if (sysPath === null) return { transport: null, anchor: null };
  const parts = sysPath.split('/');
  // USB first: a SATA bridge inside a USB enclosure still talks to the host over USB.
  const usbHost = parts.findIndex((p) => /^usb\d+$/.test(p));
  if (usbHost >= 0) {
    // The USB device is the deepest "B-P[.P…]" directory (no ":" — those are interfaces).
    let device = usbHost;
    for (let i = usbHost + 1; i < parts.length; i++) if (/^\d+-[\d.]+$/.test(parts[i]!)) device = i;
    return { transport: 'usb', anchor: parts.slice(0, device + 1).join('/') };
  }
  const ata = parts.findIndex((p) => /^ata\d+$/.test(p));
  if (ata >= 0) return { transport: 'sata', anchor: parts[ata]! };
  const nvme = parts.indexOf('nvme');
  if (nvme > 0) return { transport: 'nvme', anchor: parts.slice(0, nvme).join('/') };
  if (/^nvme\d+n\d+$/.test(name)) return { transport: 'nvme', anchor: null };
  if (parts.some((p) => /^virtio\d+$/.test(p))) return { transport: 'virtio', anchor: null };
  if (parts.some((p) => p === 'xen' || p.startsWith('vbd-'))) return { transport: 'xen', anchor: null };
  if (parts.some((p) => /^mmc\d+$/.test(p))) return { transport: 'mmc', anchor: null };
  if (parts.some((p) => /^host\d+$/.test(p))) return { transport: 'scsi', anchor: null };
  if (sysPath.startsWith('/sys/devices/virtual/')) return { transport: 'virtual', anchor: null };
  return { transport: null, anchor: null };
}

export function classify(transport: string | null, rotational: boolean | null): DeviceClass {
  switch (transport) {
    case 'loop':
      return 'loop';
    case 'zram':
    case 'ram':
    case 'pmem':
      return 'RAM';
    case 'dm':
    case 'md':
    case 'nbd':
    case 'virtio':
    case 'xen':
    case 'virtual':
      return 'virtual';
    case 'usb':
      return 'USB';
    case 'nvme':
      return 'NVMe SSD';
    case 'sata':
      // rotational is the kernel's reading of the drive's own IDENTIFY data on ATA.
      if (rotational === true) return 'HDD';
      if (rotational === false) return 'SATA SSD';
      return 'unknown';
    case 'scsi':
      // SAS or another SCSI HBA: a spinning disk is still an HDD; a SAS SSD is not "SATA SSD".
      return rotational === true ? 'HDD' : 'unknown';
    default:
      return 'unknown';
  }
}
