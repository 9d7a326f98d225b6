// `diskdelta ciphers` as text: one table, its source in the heading and on every column, so a
// user-space estimate can never be read as the kernel's figure.
import type { CipherCeilings } from '../shared/model/cipher-types.ts';
import { cipherFigureText, cipherMeasurementText } from '../shared/analysis/encryption.ts';
import { counted } from '../shared/model/display.ts';
import { formatCount } from '../shared/analysis/units.ts';

export function formatCipherCeilings(c: CipherCeilings): string {
  const out: string[] = [];
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  out.push(`CPU: ${c.cpu.model ?? 'unknown model'} — ${c.cpus} CPUs, AES-NI: ${yesNo(c.cpu.aesNi)}, VAES: ${yesNo(c.cpu.vaes)}`);
  out.push(`Measured with: ${c.sourceLabel}`);
  for (const w of c.warnings) out.push(`Note: ${w}`);
  const tag = c.source === 'kernel' ? '' : ' (user-space estimate)';
  const threads = [...new Set(c.figures.map((f) => f.threads))].sort((a, b) => a - b);
  const sectors = [...new Set(c.figures.map((f) => f.sectorBytes))].sort((a, b) => a - b);
  const keys = [...new Map(c.figures.map((f) => [`${f.cipher}:${f.keyBits}`, f])).values()];
  const header = ['cipher', 'key', 'sector', ...threads.map((t) => `${counted(t, 'thread')}: enc / dec MB/s${tag}`)];
  const rows: string[][] = [];
  for (const k of keys) {
    for (const s of sectors) {
      const cells = threads.map((t) => {
        const f = c.figures.find((x) => x.cipher === k.cipher && x.keyBits === k.keyBits && x.sectorBytes === s && x.threads === t);
        return f ? cipherFigureText(f) : '—';
      });
      rows.push([k.cipher, `${k.keyBits} bit`, `${formatCount(s)} B`, ...cells]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  out.push('', fmt(header), ...rows.map(fmt));
  if (c.unavailable.length > 0) {
    out.push('', 'Not measured:');
    for (const u of c.unavailable) out.push(`  ${u.cipher} ${u.keyBits} bit: ${u.reason}`);
  }
  out.push('', `${cipherMeasurementText(c)} One request and one IV per sector as dm-crypt does; MB/s = 10^6 bytes/s.`);
  return `${out.join('\n')}\n`;
}
