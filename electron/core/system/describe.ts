// What the orchestrator and `diskdelta inspect` ask: the target's disk and stack, the
// machine's facts, and the warnings they allow, with the verdicts a person looks for
// (encrypted layers, the lowest link ceiling, whether TRIM reaches the disk).
import type { TargetInfo, Warning } from '../model/results.ts';
import { readSystemFacts } from './cpu-memory.ts';
import { stackWarnings } from './fs-warnings.ts';
import { lowestCeiling } from './ceiling.ts';
import { buildStack } from './stack.ts';
import type { RootOptions } from './sysfs.ts';
import type { BlockDeviceInfo, DeviceFingerprint, FstrimTimerFacts, StackLayer, SystemFacts } from '../model/machine.ts';

export interface TrimVerdict {
  /** The mount's own discard option: "on", "async", "off", or null (decided elsewhere, e.g. ZFS). */
  onlineDiscard: string | null;
  /** Every layer between the filesystem and the disk passes discards (fstrim would reach the disk). */
  reachesDisk: boolean | null;
  /** The first layer that stops discards, or whose behaviour is unknown. */
  blockedAt: string | null;
  fstrimTimer: FstrimTimerFacts | null;
}

export interface InspectReport {
  target: TargetInfo;
  system: SystemFacts;
  warnings: Warning[];
  disks: BlockDeviceInfo[];
  encryptedLayers: string[];
  lowestCeiling: { bytesPerSec: number; where: string } | null;
  trim: TrimVerdict;
  unknowns: string[];
}

export async function inspectPath(targetPath: string, opts?: RootOptions): Promise<InspectReport> {
  const [stack, system] = await Promise.all([buildStack(targetPath, opts), readSystemFacts(opts)]);
  const device = pickDevice(stack.disks);
  const target: TargetInfo = { path: targetPath, kind: stack.kind, stack: stack.layers };
  if (device) target.device = device;
  const warnings = stackWarnings(stack.layers);
  if (stack.disks.length === 0 && !warnings.some((w) => w.code === 'fs-in-memory')) {
    warnings.push({
      code: 'device-unknown',
      message: `No disk found under ${stack.resolvedPath}: ${stack.unknowns.join('; ') || 'the stack ends before a disk'}. The link ceiling and the drive's facts are unknown.`,
    });
  }
  return {
    target,
    system,
    warnings,
    disks: stack.disks,
    encryptedLayers: stack.layers.filter((l) => l.encrypted).map((l) => `${l.name} (${l.kind}${l.details.cipher ? `, ${String(l.details.cipher)}` : ''})`),
    lowestCeiling: lowestCeiling(undefined, stack.layers),
    trim: trimVerdict(stack.layers, system.fstrimTimer ?? null),
    unknowns: stack.unknowns,
  };
}

/** The orchestrator's entry point: fills target.device and target.stack for a run record. */
export async function describeTarget(
  targetPath: string,
  opts?: RootOptions,
): Promise<{ target: TargetInfo; system: SystemFacts; warnings: Warning[] }> {
  const report = await inspectPath(targetPath, opts);
  return { target: report.target, system: report.system, warnings: report.warnings };
}

/** With several disks (RAID, a VG over two drives) the slowest link bounds the result. */
function pickDevice(disks: BlockDeviceInfo[]): DeviceFingerprint | null {
  if (disks.length === 0) return null;
  const sorted = [...disks].sort((a, b) => (a.linkCeilingBytesPerSec ?? Infinity) - (b.linkCeilingBytesPerSec ?? Infinity));
  const d = sorted[0]!;
  const fingerprint: DeviceFingerprint = {
    name: d.name,
    model: d.model,
    serial: d.serial,
    sizeBytes: d.sizeBytes,
    rotational: d.rotational,
    class: d.class,
    transport: d.transport,
    linkCeilingBytesPerSec: d.linkCeilingBytesPerSec,
    linkDescription: d.linkDescription,
  };
  if (d.reasons) fingerprint.reasons = d.reasons;
  return fingerprint;
}

/**
 * Discards leave the filesystem (online, or by fstrim) and must pass every layer below it.
 * A later mount layer is a loop's backing filesystem: a discard becomes a punched hole there,
 * and reaches its disk only if that filesystem discards online in turn.
 */
function trimVerdict(layers: StackLayer[], fstrimTimer: FstrimTimerFacts | null): TrimVerdict {
  // layers[0] is the target; a mount right under it is the target's own filesystem (a block
  // device target has none, and a later mount belongs to a loop's backing file).
  const mount = layers[1]?.kind === 'mount' ? layers[1] : null;
  // A partition shares its disk's queue, so the disk answers for it.
  const below = layers.slice(mount ? 2 : 1).filter((l) => l.kind !== 'file' && l.kind !== 'partition');
  let reachesDisk: boolean | null = below.some((l) => l.kind === 'disk') ? true : null;
  let blockedAt: string | null = null;
  // Layers inherit discard limits from below (LVM on a crypt without allow_discards shows 0
  // too), so the deepest layer that refuses is the cause.
  const refusing = below.filter((l) => l.discardPasses === false);
  const unknown = below.find((l) => l.discardPasses == null);
  if (refusing.length > 0) {
    reachesDisk = false;
    const cause = refusing[refusing.length - 1]!;
    blockedAt = `${cause.kind} ${cause.name}`;
  } else if (unknown && reachesDisk) {
    reachesDisk = null;
    blockedAt = `${unknown.kind} ${unknown.name} (unknown)`;
  }
  return {
    onlineDiscard: mount ? ((mount.details.onlineDiscard as string | null) ?? null) : null,
    reachesDisk,
    blockedAt,
    fstrimTimer,
  };
}
