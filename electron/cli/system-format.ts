// Plain-text views of devices and stacks for the CLI (and any text report): every figure with
// its unit, every unknown said as "unknown" with its reason listed underneath, never left blank.
import { formatBytes, formatThroughput } from '../shared/analysis/units.ts';
import type { InspectReport } from '../node/system/describe.ts';
import type { BlockDeviceInfo, StackLayer, SystemFacts } from '../shared/model/machine.ts';
import { terminalField } from '../shared/model/display.ts';
import { known, layerLine, yesNo } from '../shared/report/stack-text.ts';
import { fstrimTimerWords, onlineDiscardWords } from '../shared/model/trim-words.ts';

/** Left-aligned columns; cells are escaped (terminalField), so data cannot act on a terminal. */
export function table(header: string[], dataRows: string[][]): string {
  const rows = dataRows.map((r) => r.map(terminalField));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/**
 * The words for a fact's field, where a reason or a detail is listed ("onlineDiscard" was
 * printed as it is in the code). Unlisted fields are split into words, never shown raw.
 */
const FIELD_LABELS: Record<string, string> = {
  model: 'model',
  serial: 'serial number',
  link: 'link speed',
  sizeBytes: 'size',
  rotational: 'rotational flag',
  scheduler: 'I/O scheduler',
  removable: 'removable flag',
  readOnly: 'read-only flag',
  devNumber: 'device number',
  logicalBlockSize: 'logical sector size',
  physicalBlockSize: 'physical sector size',
  dmName: 'device-mapper name',
  loopBackingFile: 'backing file',
  backingFile: 'backing file',
  discard: 'discard support',
  onlineDiscard: 'online discard',
  directIo: 'direct I/O',
  cipher: 'cipher',
  keyBits: 'key size',
  flags: 'dm-crypt flags',
  level: 'RAID level',
  cpu: 'CPU',
  cpuModel: 'CPU model',
  memoryBytes: 'memory size',
  kernel: 'kernel version',
  fsType: 'filesystem',
};

export function fieldLabel(field: string): string {
  return (
    FIELD_LABELS[field] ??
    field
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .toLowerCase()
  );
}

function discardText(d: BlockDeviceInfo): string {
  if (d.discard.supported === false) return 'no';
  if (d.discard.supported === null) return 'unknown';
  return `yes (${formatBytes(d.discard.granularityBytes ?? 0)} / ${formatBytes(d.discard.maxBytes ?? 0)})`;
}

export function formatDevices(devices: BlockDeviceInfo[]): string {
  if (devices.length === 0) return 'No block devices found in /sys/block.\n';
  // A cell that could not be read says "unknown"; why is listed under the table.
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? 'unknown' : String(v));
  const rows = devices.map((d) => [
    d.name,
    d.class,
    cell(d.transport),
    d.sizeBytes === null ? 'unknown' : formatBytes(d.sizeBytes),
    cell(d.model),
    cell(d.serial),
    `${cell(d.logicalBlockSize)}/${cell(d.physicalBlockSize)} B`,
    yesNo(d.rotational),
    cell(d.linkDescription),
    d.linkCeilingBytesPerSec ? `~${formatThroughput(d.linkCeilingBytesPerSec)}` : 'unknown',
    cell(d.scheduler),
    discardText(d),
    [
      ...d.partitions.map((p) => (d.partitionHolders?.[p] ? `${p}→${d.partitionHolders[p].join('+')}` : p)),
      ...(d.loopBackingFile ? [`file ${d.loopBackingFile}`] : []),
      ...(d.dmName ? [`dm ${d.dmName}`] : []),
    ].join(',') || '-',
    d.holders.join(',') || '-',
  ]);
  const out = table(
    [
      'NAME',
      'CLASS',
      'TRANSPORT',
      'SIZE',
      'MODEL',
      'SERIAL',
      'SECTOR L/P',
      'ROTATIONAL',
      'LINK',
      'CEILING',
      'SCHEDULER',
      'DISCARD (gran./max)',
      'PARTS/BACKING',
      'HOLDERS',
    ],
    rows,
  );
  const notes = devices.flatMap((d) => Object.entries(d.reasons ?? {}).map(([field, why]) => `  ${d.name} ${fieldLabel(field)}: ${why}`));
  return (
    out +
    (notes.length > 0 ? `\nunknown, and why:\n${notes.join('\n')}\n` : '') +
    'Ceiling: the most the negotiated link carries after line encoding (MB/s = 10^6 bytes/s); real transfers stay below it.\n'
  );
}

export function formatSystem(s: SystemFacts): string {
  const timer = s.fstrimTimer;
  return [
    `CPU        ${known(s.cpuModel, 'model')}, ${s.cores === null ? 'cores unknown' : `${s.cores} cores`} / ${s.threads == null ? 'threads unknown' : `${s.threads} threads`}, crypto flags: ${s.cryptoFlags.join(' ') || 'none (no AES instructions: dm-crypt runs in software)'}`,
    `Memory     ${s.memoryBytes === null ? 'size unknown' : formatBytes(s.memoryBytes)}`,
    `Kernel     ${known(s.kernel, 'version')}`,
    `fstrim     ${fstrimTimerWords(timer)}`,
  ].join('\n');
}

/** The storage stack, numbered from the file down to the disk, then what could not be read and why. */
export function formatStack(stack: StackLayer[], indent = '  '): string[] {
  const lines = stack.map((layer, i) => `${indent}${String(i + 1).padStart(2)}. ${layerLine(layer)}`);
  const reasons = stack.flatMap((l) => Object.entries(l.reasons ?? {}).map(([k, v]) => `${indent}    ${l.name} ${fieldLabel(k)}: ${v}`));
  if (reasons.length > 0) lines.push(`${indent}  unknown, and why:`, ...reasons);
  return lines;
}

export function formatInspect(r: InspectReport): string {
  const lines: string[] = [];
  lines.push(`Target     ${r.target.path} (${r.target.kind})`);
  // The same class word as `diskdelta devices` and Overview's mounts table (stackDeviceClass).
  lines.push(`Class      ${r.deviceClass ?? 'unknown (no device found under the path)'}`);
  lines.push('', 'Stack, from the file down to the disk:');
  lines.push(...formatStack(r.target.stack ?? []));
  lines.push('');
  lines.push(`Encrypted  ${r.encryptedLayers.join('; ') || 'no layer'}`);
  lines.push(
    `Ceiling    ${r.lowestCeiling ? `lowest link ceiling ~${formatThroughput(r.lowestCeiling.bytesPerSec)} at ${r.lowestCeiling.where}` : 'unknown (no physical link found on the path)'}`,
  );
  const t = r.trim;
  lines.push(
    `TRIM       online discard: ${onlineDiscardWords(t.onlineDiscard)}${t.onlineDiscardNote ? " (DiskDelta's, not yours: see the warning)" : ''}; discards reach the disk: ${yesNo(t.reachesDisk)}${t.blockedAt ? ` (stopped at ${t.blockedAt})` : ''}`,
  );
  lines.push(formatSystem(r.system));
  if (r.unknowns.length > 0) lines.push('', 'Unknown:', ...r.unknowns.map((u) => `  - ${u}`));
  lines.push('', r.warnings.length > 0 ? 'Warnings:' : 'Warnings: none');
  for (const w of r.warnings) lines.push(`  [${w.code}] ${w.message}`);
  return lines.join('\n') + '\n';
}
