// Block devices from /sys/block: identity, size, sector sizes, class and transport, the
// negotiated link and its ceiling, scheduler, discard limits, partitions and holders.
import path from 'node:path';
import { classify, placementOf } from './classify.ts';
import { pcieCeiling, sataCeiling, usbCeiling, type LinkCeiling } from './link.ts';
import { exists, listDir, readBytes, readNumber, readText, resolveInRoot, rootOf, type RootOptions } from './sysfs.ts';
import type { BlockDeviceInfo, DiscardSupport, Reasons } from '../../shared/model/machine.ts';

/** Every block device under /sys/block, skipping loop devices with nothing attached. */
export async function listBlockDevices(opts?: RootOptions): Promise<BlockDeviceInfo[]> {
  const root = rootOf(opts);
  const devices: BlockDeviceInfo[] = [];
  for (const name of await listDir(root, '/sys/block')) {
    if (/^loop\d+$/.test(name) && !(await exists(root, `/sys/block/${name}/loop/backing_file`))) continue;
    const info = await readBlockDevice(name, opts);
    if (info) devices.push(info);
  }
  return devices;
}

/** One disk (/sys/block/NAME) or partition (NAME found under its disk); null when absent. */
export async function readBlockDevice(name: string, opts?: RootOptions): Promise<BlockDeviceInfo | null> {
  const root = rootOf(opts);
  const located = await locate(root, name);
  if (!located) return null;
  const { dir, disk } = located;
  const diskDir = disk === name ? dir : path.dirname(dir);
  const reasons: Reasons = {};
  const note = <T>(field: string, read: { value: T | null; reason?: string }): T | null => {
    if (read.value === null && read.reason) reasons[field] = read.reason;
    return read.value;
  };

  // Partitions have no queue/ or device/ of their own: those facts belong to the disk.
  const sysPath = await resolveInRoot(root, diskDir);
  const placement = placementOf(disk, sysPath);
  const rotationalText = note('rotational', await readText(root, `${diskDir}/queue/rotational`));
  const rotational = rotationalText === null ? null : rotationalText === '1';
  const sectors = note('sizeBytes', await readNumber(root, `${dir}/size`));
  const identity = await readIdentity(root, disk, diskDir, placement.transport, placement.anchor);
  Object.assign(reasons, identity.reasons);
  const link = await readLink(root, disk, placement.transport, placement.anchor);
  if (link.reason) reasons.link = link.reason;
  const schedulerRead = await readText(root, `${diskDir}/queue/scheduler`);
  // bio-based drivers (zram, dm, md, brd) queue nothing, so they have no scheduler file.
  const schedulerText = note(
    'scheduler',
    schedulerRead.value === null
      ? { value: null, reason: `no I/O scheduler (${schedulerRead.reason}: a bio-based driver)` }
      : schedulerRead,
  );
  const children = await listDir(root, dir);
  const partitions: string[] = [];
  for (const child of children) if (await exists(root, `${dir}/${child}/partition`)) partitions.push(child);
  const removable = note('removable', await readText(root, `${diskDir}/removable`));
  const readOnly = note('readOnly', await readText(root, `${dir}/ro`));
  const isLoop = placement.transport === 'loop';
  const isDm = placement.transport === 'dm';

  const info: BlockDeviceInfo = {
    name,
    kind: disk === name ? 'disk' : 'partition',
    devNumber: note('devNumber', await readText(root, `${dir}/dev`)),
    model: identity.model,
    serial: identity.serial,
    sizeBytes: sectors === null ? null : sectors * 512, // sysfs counts 512-byte units whatever the sector size
    rotational,
    class: classify(placement.transport, rotational),
    transport: placement.transport,
    linkCeilingBytesPerSec: link.bytesPerSec,
    linkDescription: link.description,
    logicalBlockSize: note('logicalBlockSize', await readNumber(root, `${diskDir}/queue/logical_block_size`)),
    physicalBlockSize: note('physicalBlockSize', await readNumber(root, `${diskDir}/queue/physical_block_size`)),
    removable: removable === null ? null : removable === '1',
    readOnly: readOnly === null ? null : readOnly === '1',
    scheduler: schedulerText === null ? null : activeScheduler(schedulerText),
    discard: await readDiscard(root, diskDir, reasons),
    partitions,
    holders: await listDir(root, `${dir}/holders`),
    slaves: await listDir(root, `${dir}/slaves`),
  };
  const partitionHolders: Record<string, string[]> = {};
  for (const part of partitions) {
    const held = await listDir(root, `${dir}/${part}/holders`);
    if (held.length > 0) partitionHolders[part] = held;
  }
  if (Object.keys(partitionHolders).length > 0) info.partitionHolders = partitionHolders;
  if (isDm) info.dmName = note('dmName', await readText(root, `${dir}/dm/name`));
  if (isLoop) info.loopBackingFile = note('loopBackingFile', await readText(root, `${dir}/loop/backing_file`));
  if (Object.keys(reasons).length > 0) info.reasons = reasons;
  return info;
}

/** Where NAME lives: /sys/block/NAME for a disk, /sys/block/DISK/NAME for a partition. */
async function locate(root: string, name: string): Promise<{ dir: string; disk: string } | null> {
  if (!/^[\w.:+-]+$/.test(name)) return null; // a kernel name, never a path
  if (await exists(root, `/sys/block/${name}/dev`)) return { dir: `/sys/block/${name}`, disk: name };
  for (const disk of await listDir(root, '/sys/block')) {
    if (await exists(root, `/sys/block/${disk}/${name}/partition`)) return { dir: `/sys/block/${disk}/${name}`, disk };
  }
  return null;
}

/** "none [mq-deadline] kyber bfq" → "mq-deadline"; a single word is the active one. */
export function activeScheduler(text: string): string | null {
  const bracketed = /\[([^\]]+)\]/.exec(text);
  if (bracketed) return bracketed[1]!;
  const words = text.trim().split(/\s+/).filter(Boolean);
  return words.length === 1 ? words[0]! : null;
}

async function readDiscard(root: string, diskDir: string, reasons: Reasons): Promise<DiscardSupport> {
  const granularity = await readNumber(root, `${diskDir}/queue/discard_granularity`);
  const max = await readNumber(root, `${diskDir}/queue/discard_max_bytes`);
  const maxHw = await readNumber(root, `${diskDir}/queue/discard_max_hw_bytes`);
  if (max.reason) reasons.discard = max.reason;
  return {
    supported: max.value === null ? null : max.value > 0,
    granularityBytes: granularity.value,
    maxBytes: max.value,
    maxHwBytes: maxHw.value,
  };
}

interface Identity {
  model: string | null;
  serial: string | null;
  reasons: Reasons;
}

async function readIdentity(
  root: string,
  disk: string,
  diskDir: string,
  transport: string | null,
  anchor: string | null,
): Promise<Identity> {
  const reasons: Reasons = {};
  if (transport === 'loop' || transport === 'zram' || transport === 'ram' || transport === 'dm' || transport === 'md') {
    return {
      model: null,
      serial: null,
      reasons: { model: `${transport} devices have no hardware model`, serial: `${transport} devices have no serial number` },
    };
  }
  let model: string | null = null;
  let serial: string | null;
  if (transport === 'nvme') {
    // device/ of a namespace is its controller, which carries model and serial.
    const m = await readText(root, `${diskDir}/device/model`);
    const s = await readText(root, `${diskDir}/device/serial`);
    model = m.value?.trim() || null;
    serial = s.value?.trim() || null;
    if (m.reason) reasons.model = m.reason;
    if (s.reason) reasons.serial = s.reason;
  } else if (transport === 'virtio') {
    const s = await readText(root, `${diskDir}/serial`);
    serial = s.value?.trim() || null;
    if (!serial) reasons.serial = s.reason ?? 'the virtio disk reports an empty serial';
    reasons.model = 'virtio disks report no model';
  } else {
    const vendor = await readText(root, `${diskDir}/device/vendor`);
    const m = await readText(root, `${diskDir}/device/model`);
    // SATA disks behind libata all report the SCSI vendor "ATA": it names the bus, not the maker.
    const vendorName = vendor.value?.trim();
    const parts = [vendorName && vendorName !== 'ATA' ? vendorName : null, m.value?.trim() || null].filter(Boolean);
    model = parts.length > 0 ? parts.join(' ') : null;
    if (!model) reasons.model = m.reason ?? `${diskDir}/device/model is empty`;
    serial = await readVpdSerial(root, diskDir, reasons);
    if (!serial && transport === 'usb' && anchor) {
      const s = await readText(root, `${anchor}/serial`);
      serial = s.value?.trim() || null;
      if (serial) delete reasons.serial;
    }
    if (!serial) serial = await readUdevSerial(root, diskDir, reasons);
  }
  if (!model && !reasons.model) reasons.model = `no model for ${disk} in sysfs`;
  return { model, serial, reasons };
}

/** SCSI VPD page 0x80 (unit serial number): a 4-byte header, then the serial in ASCII. */
async function readVpdSerial(root: string, diskDir: string, reasons: Reasons): Promise<string | null> {
  const page = await readBytes(root, `${diskDir}/device/vpd_pg80`);
  if (page.value === null) {
    reasons.serial = page.reason;
    return null;
  }
  const length = page.value.length >= 4 ? page.value.readUInt16BE(2) : 0;
  const serial = page.value
    .subarray(4, 4 + length)
    .toString('latin1')
    .replace(/\0/g, '')
    .trim();
  if (!serial) reasons.serial = `${diskDir}/device/vpd_pg80 holds no serial`;
  return serial || null;
}

/** udev's database keeps the serial it read with root rights at boot (machine-readable E: lines). */
async function readUdevSerial(root: string, diskDir: string, reasons: Reasons): Promise<string | null> {
  const dev = await readText(root, `${diskDir}/dev`);
  if (dev.value === null) return null;
  const db = await readText(root, `/run/udev/data/b${dev.value.trim()}`);
  const match = db.value ? /^E:ID_SERIAL_SHORT=(.+)$/m.exec(db.value) : null;
  if (match) {
    delete reasons.serial;
    return match[1]!.trim();
  }
  return null;
}

async function readLink(root: string, disk: string, transport: string | null, anchor: string | null): Promise<LinkCeiling> {
  switch (transport) {
    case 'sata': {
      const port = anchor ? /^ata(\d+)$/.exec(anchor)?.[1] : undefined;
      if (!port) return { bytesPerSec: null, description: null, reason: 'ATA port not found in the sysfs path' };
      const spd = await readText(root, `/sys/class/ata_link/link${port}/sata_spd`);
      if (spd.value === null)
        return { bytesPerSec: null, description: null, reason: `${spd.reason} (behind a port multiplier, or libata too old)` };
      return sataCeiling(spd.value);
    }
    case 'nvme': {
      let pci = anchor;
      if (!pci) {
        // Native multipath: the namespace hangs under nvme-subsystem; ask its first controller.
        const ctrl = /^nvme(\d+)n\d+$/.exec(disk)?.[1];
        pci = ctrl === undefined ? null : await resolveInRoot(root, `/sys/class/nvme/nvme${ctrl}/device`);
      }
      if (!pci) return { bytesPerSec: null, description: null, reason: "the NVMe controller's PCI device was not found" };
      const speed = await readText(root, `${pci}/current_link_speed`);
      const width = await readText(root, `${pci}/current_link_width`);
      if (speed.value === null)
        return { bytesPerSec: null, description: null, reason: `${speed.reason} (NVMe over fabrics has no PCIe link)` };
      if (width.value === null) return { bytesPerSec: null, description: null, reason: width.reason };
      return pcieCeiling(speed.value, width.value);
    }
    case 'usb': {
      if (!anchor) return { bytesPerSec: null, description: null, reason: 'USB device not found in the sysfs path' };
      const speed = await readText(root, `${anchor}/speed`);
      if (speed.value === null) return { bytesPerSec: null, description: null, reason: speed.reason };
      return usbCeiling(speed.value);
    }
    case 'loop':
      return {
        bytesPerSec: null,
        description: null,
        reason: 'a loop device has no link: its ceiling is that of the disk under its backing file',
      };
    case 'zram':
    case 'ram':
    case 'pmem':
      return { bytesPerSec: null, description: null, reason: 'a RAM-backed device has no bus link' };
    case 'dm':
    case 'md':
      return { bytesPerSec: null, description: null, reason: 'a virtual layer: its ceiling is that of the disks under it' };
    case 'virtio':
    case 'xen':
      return {
        bytesPerSec: null,
        description: null,
        reason: "a virtual machine's disk: the host's storage and the hypervisor set its speed",
      };
    default:
      return { bytesPerSec: null, description: null, reason: `no link speed known for transport ${transport ?? 'unknown'}` };
  }
}
