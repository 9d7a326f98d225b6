// Plain-text views of devices and stacks for the CLI (and any text report): every figure with
// its unit, every unknown shown as "?" with its reason listed underneath, never left blank.
import { formatBytes, formatThroughput } from '../core/analysis/units.ts';
import type { InspectReport } from '../core/system/describe.ts';
import type { BlockDeviceInfo, StackLayer, SystemFacts } from '../core/model/machine.ts';

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/**
 * The words for a fact's field, where a reason or a detail is listed ("onlineDiscard" was
 * printed as it is in the code). Unlisted fields are split into words, never shown raw.
 */
const FIELD_LABELS: Record<string, string> = {
  model: 'model', serial: 'serial number', link: 'link speed', sizeBytes: 'size', rotational: 'rotational flag',
  scheduler: 'I/O scheduler', removable: 'removable flag', readOnly: 'read-only flag', devNumber: 'device number',
  logicalBlockSize: 'logical sector size', physicalBlockSize: 'physical sector size', dmName: 'device-mapper name',
  loopBackingFile: 'backing file', backingFile: 'backing file', discard: 'discard support', onlineDiscard: 'online discard',
  directIo: 'direct I/O', cipher: 'cipher', keyBits: 'key size', flags: 'dm-crypt flags', level: 'RAID level',
  cpu: 'CPU', cpuModel: 'CPU model', memoryBytes: 'memory size', kernel: 'kernel version', fsType: 'filesystem',
};

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
}

const q = (value: string | null | undefined): string => (value === null || value === undefined || value === '' ? '?' : value);
/** A stack detail as text: imported and older runs may lack any of them, shown as "?" then. */
const v = (value: unknown): string => (value === null || value === undefined || value === '' ? '?' : String(value));
const yesNo = (value: boolean | null | undefined): string => (value === true ? 'yes' : value === false ? 'no' : '?');

function ceiling(bytesPerSec: number | null | undefined): string {
  return bytesPerSec ? `~${formatThroughput(bytesPerSec)}` : '?';
}

function discardText(d: BlockDeviceInfo): string {
  if (d.discard.supported === false) return 'no';
  if (d.discard.supported === null) return '?';
  return `yes (${formatBytes(d.discard.granularityBytes ?? 0)} / ${formatBytes(d.discard.maxBytes ?? 0)})`;
}

export function formatDevices(devices: BlockDeviceInfo[]): string {
  if (devices.length === 0) return 'No block devices found in /sys/block.\n';
  const rows = devices.map((d) => [
    d.name,
    d.class,
    q(d.transport),
    d.sizeBytes === null ? '?' : formatBytes(d.sizeBytes),
    q(d.model),
    q(d.serial),
    `${d.logicalBlockSize ?? '?'}/${d.physicalBlockSize ?? '?'} B`,
    yesNo(d.rotational),
    q(d.linkDescription),
    ceiling(d.linkCeilingBytesPerSec),
    q(d.scheduler),
    discardText(d),
    [...d.partitions.map((p) => (d.partitionHolders?.[p] ? `${p}→${d.partitionHolders[p].join('+')}` : p)), ...(d.loopBackingFile ? [`file ${d.loopBackingFile}`] : []), ...(d.dmName ? [`dm ${d.dmName}`] : [])].join(',') || '-',
    d.holders.join(',') || '-',
  ]);
  const out = table(
    ['NAME', 'CLASS', 'TRANSPORT', 'SIZE', 'MODEL', 'SERIAL', 'SECTOR L/P', 'ROTATIONAL', 'LINK', 'CEILING', 'SCHEDULER', 'DISCARD (gran./max)', 'PARTS/BACKING', 'HOLDERS'],
    rows,
  );
  const notes = devices.flatMap((d) => Object.entries(d.reasons ?? {}).map(([field, why]) => `  ${d.name} ${fieldLabel(field)}: ${why}`));
  return out + (notes.length > 0 ? `\n? unknown:\n${notes.join('\n')}\n` : '') + 'Ceiling: the most the negotiated link carries after line encoding (MB/s = 10^6 bytes/s); real transfers stay below it.\n';
}

function layerLine(layer: StackLayer): string {
  const d = layer.details;
  const pass = layer.discardPasses === undefined ? '' : `  discards: ${yesNo(layer.discardPasses)}`;
  switch (layer.kind) {
    case 'file':
      return `file       ${layer.name}${d.type === 'loop backing file' ? '  (loop backing file)' : ''}`;
    case 'mount':
      return `mount      ${layer.name}  ${v(d.fsType)} from ${v(d.source)}  options ${v(d.options)}  online discard: ${v(d.onlineDiscard)}`;
    case 'dm-crypt': {
      const cipher = d.cipher ? `${v(d.cipher)}, ${v(d.keyBits)}-bit key${d.cipherKeyBits && v(d.cipher).startsWith('aes') ? ` (AES-${v(d.cipherKeyBits)})` : ''}` : 'cipher ?';
      const flags = d.flags === null || d.flags === undefined ? 'flags ?' : `flags: ${String(d.flags) || 'none'}`;
      return `dm-crypt   ${layer.name} (${v(d.device)}, ${v(d.format)})  ${cipher}  ${flags}${pass}`;
    }
    case 'lvm':
      return `lvm        ${layer.name} (${v(d.device)})  VG ${v(d.vg)}  LV ${v(d.lv)}${pass}`;
    case 'loop':
      return `loop       ${layer.name}  backing file ${v(d.backingFile)}  direct I/O: ${yesNo(d.directIo as boolean | null)}${pass}`;
    case 'partition':
      return `partition  ${layer.name}  #${v(d.number)} on ${v(d.disk)}, ${d.sizeBytes ? formatBytes(Number(d.sizeBytes)) : '?'}${pass}`;
    case 'disk':
      return `disk       ${layer.name}  ${v(d.class)} via ${v(d.transport)}  ${v(d.model)}  ${d.sizeBytes ? formatBytes(Number(d.sizeBytes)) : '?'}  link ${v(d.link)} ceiling ${ceiling(layer.linkCeilingBytesPerSec)}${pass}`;
    default: {
      const facts = Object.entries(d).filter(([, value]) => value !== null && value !== undefined && value !== '').map(([k, value]) => `${fieldLabel(k)} ${String(value)}`);
      return `${layer.kind.padEnd(10)} ${layer.name}  ${facts.join(', ')}${pass}`;
    }
  }
}

export function formatSystem(s: SystemFacts): string {
  const timer = s.fstrimTimer;
  return [
    `CPU        ${q(s.cpuModel)}, ${s.cores ?? '?'} cores / ${s.threads ?? '?'} threads, crypto flags: ${s.cryptoFlags.join(' ') || 'none (no AES instructions: dm-crypt runs in software)'}`,
    `Memory     ${s.memoryBytes === null ? '?' : formatBytes(s.memoryBytes)}`,
    `Kernel     ${q(s.kernel)}`,
    `fstrim     timer enabled: ${yesNo(timer?.enabled)}${timer?.reason ? ` (${timer.reason})` : ''}`,
  ].join('\n');
}

/** The storage stack, numbered from the file down to the disk, then what could not be read and why. */
export function formatStack(stack: StackLayer[], indent = '  '): string[] {
  const lines = stack.map((layer, i) => `${indent}${String(i + 1).padStart(2)}. ${layerLine(layer)}`);
  const reasons = stack.flatMap((l) => Object.entries(l.reasons ?? {}).map(([k, v]) => `${indent}    ${l.name} ${fieldLabel(k)}: ${v}`));
  if (reasons.length > 0) lines.push(`${indent}  ? unknown:`, ...reasons);
  return lines;
}

export function formatInspect(r: InspectReport): string {
  const lines: string[] = [];
  lines.push(`Target     ${r.target.path} (${r.target.kind})`);
  lines.push('', 'Stack, from the file down to the disk:');
  lines.push(...formatStack(r.target.stack ?? []));
  lines.push('');
  lines.push(`Encrypted  ${r.encryptedLayers.join('; ') || 'no layer'}`);
  lines.push(`Ceiling    ${r.lowestCeiling ? `lowest link ceiling ~${formatThroughput(r.lowestCeiling.bytesPerSec)} at ${r.lowestCeiling.where}` : 'unknown (no physical link found on the path)'}`);
  const t = r.trim;
  lines.push(`TRIM       online discard: ${q(t.onlineDiscard)}; discards reach the disk: ${yesNo(t.reachesDisk)}${t.blockedAt ? ` (stopped at ${t.blockedAt})` : ''}`);
  lines.push(formatSystem(r.system));
  if (r.unknowns.length > 0) lines.push('', 'Unknown:', ...r.unknowns.map((u) => `  - ${u}`));
  lines.push('', r.warnings.length > 0 ? 'Warnings:' : 'Warnings: none');
  for (const w of r.warnings) lines.push(`  [${w.code}] ${w.message}`);
  return lines.join('\n') + '\n';
}
