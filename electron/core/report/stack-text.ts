// One layer of a storage stack as text, as the report shows it and `diskdelta inspect` lists
// it (electron/cli/system-format.ts). Pure (no Node): the renderer's report view imports it.
import { formatBytes, formatThroughput } from '../analysis/units.ts';
import type { StackLayer } from '../model/machine.ts';

export const q = (value: string | null | undefined): string => (value === null || value === undefined || value === '' ? '?' : value);
export const yesNo = (value: boolean | null | undefined): string => (value === true ? 'yes' : value === false ? 'no' : '?');

/** A detail as text; a missing one (a reference run's partial stack) is "?", never "undefined". */
const text = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '?';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
};

export function ceiling(bytesPerSec: number | null | undefined): string {
  return bytesPerSec ? `~${formatThroughput(bytesPerSec)}` : '?';
}

/** One layer of a stack as `diskdelta inspect` lists it (also the report's stack listing). */
export function layerLine(layer: StackLayer): string {
  const d = layer.details;
  const pass = layer.discardPasses === undefined ? '' : `  discards: ${yesNo(layer.discardPasses)}`;
  switch (layer.kind) {
    case 'file':
      return `file       ${layer.name}${d.type === 'loop backing file' ? '  (loop backing file)' : ''}`;
    case 'mount':
      return `mount      ${layer.name}  ${text(d.fsType)} from ${text(d.source)}  options ${text(d.options)}  online discard: ${q(d.onlineDiscard as string | null)}`;
    case 'dm-crypt': {
      const cipher = d.cipher
        ? `${String(d.cipher)}${d.keyBits != null ? `, ${String(d.keyBits)}-bit key` : ''}${d.cipherKeyBits && String(d.cipher).startsWith('aes') ? ` (AES-${String(d.cipherKeyBits)})` : ''}`
        : 'cipher ?';
      const flags = d.flags === null || d.flags === undefined ? 'flags ?' : `flags: ${String(d.flags) || 'none'}`;
      return `dm-crypt   ${layer.name} (${text(d.device)}, ${q(d.format as string | null)})  ${cipher}  ${flags}${pass}`;
    }
    case 'lvm':
      return `lvm        ${layer.name} (${text(d.device)})  VG ${q(d.vg as string | null)}  LV ${q(d.lv as string | null)}${pass}`;
    case 'loop':
      return `loop       ${layer.name}  backing file ${q(d.backingFile as string | null)}  direct I/O: ${yesNo(d.directIo as boolean | null)}${pass}`;
    case 'partition':
      return `partition  ${layer.name}  #${text(d.number)} on ${text(d.disk)}, ${d.sizeBytes ? formatBytes(Number(d.sizeBytes)) : '?'}${pass}`;
    case 'disk':
      return `disk       ${layer.name}  ${text(d.class)} via ${q(d.transport as string | null)}  ${q(d.model as string | null)}  ${d.sizeBytes ? formatBytes(Number(d.sizeBytes)) : '?'}  link ${q(d.link as string | null)} ceiling ${ceiling(layer.linkCeilingBytesPerSec)}${pass}`;
    default:
      return `${layer.kind.padEnd(10)} ${layer.name}  ${JSON.stringify(d)}${pass}`;
  }
}
