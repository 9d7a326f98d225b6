// What the orchestrator and `diskdelta inspect` ask: the target's disk and stack, the
// machine's facts, and the warnings they allow, with the verdicts a person looks for
// (encrypted layers, the lowest link ceiling, whether TRIM reaches the disk).
import type { TargetInfo, Warning } from '../../shared/model/results.ts';
import { readSystemFacts } from './cpu-memory.ts';
import { stackWarnings } from './fs-warnings.ts';
import { lowestCeiling } from './ceiling.ts';
import { buildStack } from './stack.ts';
import { trimVerdict, type TrimVerdict } from '../../shared/analysis/trim-verdict.ts';
import type { RootOptions } from './sysfs.ts';
import {
  stackDeviceClass,
  type BlockDeviceInfo,
  type DeviceClass,
  type DeviceFingerprint,
  type SystemFacts,
} from '../../shared/model/machine.ts';

export interface InspectReport {
  target: TargetInfo;
  system: SystemFacts;
  warnings: Warning[];
  disks: BlockDeviceInfo[];
  /** What the path's data sits on, named as `diskdelta devices` and Overview's Disks card name it. */
  deviceClass: DeviceClass | null;
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
    deviceClass: stackDeviceClass(stack.layers, device),
    encryptedLayers: stack.layers
      .filter((l) => l.encrypted)
      .map((l) => `${l.name} (${l.kind}${l.details.cipher ? `, ${String(l.details.cipher)}` : ''})`),
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
