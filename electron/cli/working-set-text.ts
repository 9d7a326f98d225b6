// The terminal's view of a working-set run: the windows, the largest folders, the verdict, what
// was not walked and what the mount's atime options mean. The same words as the report's
// section (analysis/working-set.ts), laid out for a terminal. Names (the target, its folders,
// those in the notes) are fields: a newline in a folder's name is shown as \u000a, never a line
// of its own that could pass for one of ours.
import type { RunRecord } from '../shared/model/results.ts';
import { formatDiskSize, summaryOfResult, VERDICT_DAYS, workingSetVerdict, WORKING_SET_TEST } from '../shared/analysis/working-set.ts';
import { counted, terminalField } from '../shared/model/display.ts';

export function workingSetText(record: RunRecord, ssdBytes?: number): string {
  const result = record.results.find((r) => r.test === WORKING_SET_TEST);
  const summary = result ? summaryOfResult(result) : null;
  if (!result || !summary) return `${terminalField(record.target.path)}: no working-set result\n`;
  const lines = [`Working set of ${terminalField(record.target.path)}${record.id ? ` (run #${record.id})` : ''}`];
  lines.push(`  ${counted(summary.files, 'file')}, ${formatDiskSize(summary.totalBytes)} allocated`);
  lines.push('', `  ${'within'.padEnd(10)} ${'read or written'.padStart(16)} ${'written'.padStart(12)}`);
  for (const w of summary.windows)
    lines.push(
      `  ${`${w.days} d`.padEnd(10)} ${formatDiskSize(w.touchedBytes).padStart(16)} ${formatDiskSize(w.writtenBytes).padStart(12)}`,
    );
  if (summary.folders.length) {
    lines.push('', `  ${'largest folders'.padEnd(30)} ${'size'.padStart(10)} ${`touched ≤ ${VERDICT_DAYS} d`.padStart(16)}`);
    for (const f of summary.folders)
      lines.push(
        `  ${terminalField(f.name).slice(0, 30).padEnd(30)} ${formatDiskSize(f.bytes).padStart(10)} ${formatDiskSize(f.recentBytes).padStart(16)}`,
      );
  }
  lines.push('', `  ${workingSetVerdict(summary, ssdBytes)}`);
  const notes = [...result.warnings, ...record.warnings];
  if (notes.length) lines.push('', '  Notes:', ...notes.map((w) => `  - ${terminalField(w.message)}`));
  return lines.join('\n') + '\n';
}
