// The lowest link ceiling between a target and its disk: what the slowest link can carry.
import type { DeviceFingerprint, StackLayer } from '../../shared/model/machine.ts';

/** The lowest known link ceiling among the device and the stack's disks. */
export function lowestCeiling(device?: DeviceFingerprint, stack?: StackLayer[]): { bytesPerSec: number; where: string } | null {
  const candidates: Array<{ bytesPerSec: number; where: string }> = [];
  if (device?.linkCeilingBytesPerSec)
    candidates.push({ bytesPerSec: device.linkCeilingBytesPerSec, where: `${device.name} (${device.linkDescription ?? 'link'})` });
  for (const layer of stack ?? []) {
    if (layer.kind === 'disk' && layer.linkCeilingBytesPerSec) {
      candidates.push({ bytesPerSec: layer.linkCeilingBytesPerSec, where: `${layer.name} (${String(layer.details.link ?? 'link')})` });
    }
  }
  if (candidates.length === 0) return null;
  return candidates.reduce((a, b) => (b.bytesPerSec < a.bytesPerSec ? b : a));
}
