// One layer of a storage stack as text, as the report shows it and `diskdelta inspect` lists
// it (electron/cli/system-format.ts). Pure (no Node): the renderer's report view imports it.
// A fact that could not be read is said in words ("model unknown", "link speed unknown"),
// never as "?": a reader of "via virtio ? 256 GiB link ? ceiling ?" cannot tell what is missing.
import { formatBytes, formatIops, formatThroughput } from '../analysis/units.ts';
import type { StackLayer } from '../model/machine.ts';
import { onlineDiscardWords } from '../model/trim-words.ts';

/** A value, or "WHAT unknown" when it could not be read. */
export const known = (value: string | number | null | undefined, what: string): string =>
  value === null || value === undefined || value === '' ? `${what} unknown` : String(value);
export const yesNo = (value: boolean | null | undefined): string => (value === true ? 'yes' : value === false ? 'no' : 'unknown');

/** A detail as text; a missing one (a reference run's partial stack) is "WHAT unknown", never "undefined". */
const detail = (value: unknown, what: string): string => {
  if (value === null || value === undefined || value === '') return `${what} unknown`;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
};

export function ceiling(bytesPerSec: number | null | undefined): string {
  return bytesPerSec ? `ceiling ~${formatThroughput(bytesPerSec)}` : 'no known ceiling';
}

type Details = StackLayer['details'];

/** "read 40 MB/s, 150 IOPS; write 40 MB/s" from the caps under `prefix` (throttle, otherThrottle). */
function capsText(details: Details, prefix: string): string {
  const num = (key: string) => {
    const value = details[`${prefix}${key}`];
    return typeof value === 'number' ? value : null;
  };
  const side = (bps: number | null, iops: number | null) =>
    [bps ? formatThroughput(bps) : null, iops ? formatIops(iops) : null].filter(Boolean).join(', ');
  const read = side(num('ReadBps'), num('ReadIops'));
  const write = side(num('WriteBps'), num('WriteIops'));
  return [read ? `read ${read}` : null, write ? `write ${write}` : null].filter(Boolean).join('; ');
}

const count = (details: Details, key: string) => (typeof details[key] === 'number' ? details[key] : 1);

/**
 * The blkio throttle that capped this run on a layer's device ("read 40 MB/s, 150 IOPS; write …
 * (blkio group /hdd, the run's)"), or null: a capped device measures as its cap, so every view of
 * it says so. Only the measuring process's group's caps (or a group's above it) are the run's;
 * a run stored before the group was known (no throttleMeasuredIn) names the group it had.
 */
export function throttleText(details: Details): string | null {
  if (details.throttleGroup === undefined || details.throttleGroup === null) return null;
  const group = String(details.throttleGroup);
  const measuredIn = details.throttleMeasuredIn;
  const more = count(details, 'throttleGroups') > 1 ? `, and ${count(details, 'throttleGroups') - 1} more groups above it` : '';
  const whose = measuredIn === undefined ? '' : measuredIn === group ? ", the run's" : `, above the run's group ${String(measuredIn)}`;
  return `${capsText(details, 'throttle')} (blkio group ${group}${whose}${more})`;
}

/**
 * Another blkio group's caps on a layer's device, which did not cap this run ("blkio group /B:
 * read 100 MB/s, 2,000 IOPS; the run measured in /A"), or null. Where the run's group is not
 * known, whose caps applied cannot be told, and that is said.
 */
export function otherThrottleText(details: Details): string | null {
  if (details.otherThrottleGroup === undefined || details.otherThrottleGroup === null) return null;
  const measuredIn = details.throttleMeasuredIn;
  const n = count(details, 'otherThrottleGroups');
  const more = n > 1 ? ` (and ${n - 1} more groups)` : '';
  const run =
    typeof measuredIn === 'string'
      ? `not the run's: it measured in blkio group ${measuredIn}`
      : 'the group the run measured in is not known, so whether it capped the run cannot be told';
  return `blkio group ${String(details.otherThrottleGroup)}: ${capsText(details, 'otherThrottle')}${more}; ${run}`;
}

const throttled = (details: Details) => {
  const t = throttleText(details);
  const other = otherThrottleText(details);
  return `${t ? `  throttled: ${t}` : ''}${other ? `  another group's throttle: ${other}` : ''}`;
};

const size = (bytes: unknown) => (bytes ? formatBytes(Number(bytes)) : 'size unknown');

/** One layer of a stack as `diskdelta inspect` lists it (also the report's stack listing). */
export function layerLine(layer: StackLayer): string {
  const d = layer.details;
  const pass =
    layer.discardPasses === undefined
      ? ''
      : `  discards: ${layer.discardPasses === null ? 'whether they pass is unknown' : yesNo(layer.discardPasses)}`;
  switch (layer.kind) {
    case 'file':
      return `file       ${layer.name}${d.type === 'loop backing file' ? '  (loop backing file)' : ''}`;
    case 'mount':
      return `mount      ${layer.name}  ${detail(d.fsType, 'file system')} from ${detail(d.source, 'source')}  options ${detail(d.options, 'options')}  online discard: ${onlineDiscardWords((d.onlineDiscard as string | null | undefined) ?? null)}`;
    case 'dm-crypt': {
      const cipher = d.cipher
        ? `${String(d.cipher)}${d.keyBits != null ? `, ${String(d.keyBits)}-bit key` : ''}${d.cipherKeyBits && String(d.cipher).startsWith('aes') ? ` (AES-${String(d.cipherKeyBits)})` : ''}`
        : 'cipher unknown';
      const flags = d.flags === null || d.flags === undefined ? 'flags unknown' : `flags: ${String(d.flags) || 'none'}`;
      return `dm-crypt   ${layer.name} (${detail(d.device, 'device')}, ${known(d.format as string | null, 'format')})  ${cipher}  ${flags}${pass}`;
    }
    case 'lvm':
      return `lvm        ${layer.name} (${detail(d.device, 'device')})  VG ${known(d.vg as string | null, 'name')}  LV ${known(d.lv as string | null, 'name')}${pass}`;
    case 'loop':
      return `loop       ${layer.name}  backing file ${known(d.backingFile as string | null, 'path')}  direct I/O: ${yesNo(d.directIo as boolean | null)}${throttled(d)}${pass}`;
    case 'partition':
      return `partition  ${layer.name}  #${detail(d.number, 'number')} on ${detail(d.disk, 'disk')}, ${size(d.sizeBytes)}${pass}`;
    case 'disk':
      return `disk       ${layer.name}  ${detail(d.class, 'class')} via ${known(d.transport as string | null, 'transport')}  ${known(d.model as string | null, 'model')}  ${size(d.sizeBytes)}  link ${d.link ? String(d.link) : 'speed unknown'}, ${ceiling(layer.linkCeilingBytesPerSec)}${throttled(d)}${pass}`;
    default:
      return `${layer.kind.padEnd(10)} ${layer.name}  ${JSON.stringify(d)}${pass}`;
  }
}
