// `diskdelta ciphers` as text: one table, its source in the heading and on every column, so a
// user-space estimate can never be read as the kernel's figure.
import { formatNumber } from '../analysis/units.ts';
import type { CipherCeilings } from './cipher-ceilings.ts';
import { counted } from '../model/display.ts';

/** "1,419 ±4 %": a median with its interval; no interval from a single window. */
function rateText(bps: number, ci: number | null | undefined): string {
  return ci == null ? formatNumber(bps / 1e6) : `${formatNumber(bps / 1e6)} ±${Math.max(1, Math.round(ci * 100))} %`;
}

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
        if (!f) return '—';
        const marks = [f.noisy ? 'noisy' : '', f.slowerThanOneThread ? 'slower than 1 thread' : ''].filter(Boolean);
        const mark = marks.length ? ` [${marks.join(', ')}]` : '';
        return `${rateText(f.encryptBps, f.encryptCi)} / ${rateText(f.decryptBps, f.decryptCi)}${mark}`;
      });
      rows.push([k.cipher, `${k.keyBits} bit`, `${s} B`, ...cells]);
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
  const rounds = c.rounds ?? 1;
  out.push(
    '',
    rounds > 1
      ? `Each figure: the median of ${rounds} rounds of a ${c.windowSeconds} s window (± its 95 % interval), the figures interleaved within each round; one request and one IV per sector as dm-crypt does; MB/s = 10^6 bytes/s.`
      : `Each figure: one ${c.windowSeconds} s window (no interval: a single round); one request and one IV per sector as dm-crypt does; MB/s = 10^6 bytes/s.`,
  );
  out.push(`Measured ${c.measuredAt}${c.kernel ? ` on kernel ${c.kernel}` : ''} with ${c.backend}.`);
  return `${out.join('\n')}\n`;
}
