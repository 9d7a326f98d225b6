// The encryption report as text, for `diskdelta encryption`: measured figures and forecasts
// in separate, labelled columns — a forecast is never printed in a measurement's place.
import { formatCount, formatNumber } from '../shared/analysis/units.ts';
import { FORECAST_ACCURACY_SENTENCE } from '../shared/analysis/encryption.ts';
import type { EncryptionReport } from '../node/crypto/encryption-run.ts';

const mbs = (bps: number | null | undefined) => (bps === null || bps === undefined ? '—' : `${formatNumber(bps / 1e6)} MB/s`);

export function formatEncryptionReport(r: EncryptionReport): string {
  const out: string[] = [];
  for (const c of r.cleaned) out.push(`Cleaned up: ${c}`);
  const s = r.setup;
  out.push(
    `Mode: ${r.mode === 'throwaway' ? 'throwaway plain mapping over a DiskDelta test file (removed)' : 'existing dm-crypt mapping and the device beneath, read-only; writes only through a DiskDelta test file on its filesystem'}`,
  );
  out.push(`dm-crypt: ${s.cipher}, ${s.keyBits}-bit key, ${formatCount(s.sectorBytes)} B sectors, flags: ${s.flags.join(' ') || 'none'}`);
  if (r.rates) {
    const tag = r.rates.source === 'kernel' ? '' : ' — user-space estimate';
    out.push(
      `Cipher ceiling (${r.ceilings.sourceLabel}): decrypt ${mbs(r.rates.decrypt1)} on one core, ${mbs(r.rates.decryptAll)} on ${r.rates.cpus}; encrypt ${mbs(r.rates.encrypt1)} / ${mbs(r.rates.encryptAll)}${tag}`,
    );
  }
  for (const n of r.notes) out.push(`Note: ${n}`);
  const header = ['test', 'raw', 'dm-crypt', 'cost', 'ceiling', 'forecast (estimated)', 'forecast vs measured'];
  const rows = r.verdict.map((v) => {
    const f = r.forecast.find((x) => x.test === v.test);
    return [
      v.test,
      // A write's raw figure beneath an existing mapping is the disk's read (never written).
      v.rawStandIn ? `${mbs(v.rawBytesPerSec)} (its read)` : mbs(v.rawBytesPerSec),
      mbs(v.encryptedBytesPerSec),
      `${Math.round(v.costPercent)} %`,
      v.ceiling,
      f ? mbs(f.estimatedBytesPerSec) : '—',
      f
        ? `${f.estimatedBytesPerSec >= v.encryptedBytesPerSec ? '+' : ''}${Math.round((f.estimatedBytesPerSec / v.encryptedBytesPerSec - 1) * 100)} %`
        : '—',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  out.push('', fmt(header), ...rows.map(fmt), '');
  if (r.forecast.length > 0) out.push(FORECAST_ACCURACY_SENTENCE, '');
  for (const v of r.verdict) out.push(`- ${v.sentence[0]!.toUpperCase()}${v.sentence.slice(1)}`);
  if (r.raw.id !== undefined) {
    const writes = r.encryptedWrites?.id;
    out.push(
      '',
      writes === undefined
        ? `Saved as runs #${r.raw.id} (raw) and #${r.encrypted.id} (dm-crypt): diskdelta compare ${r.raw.id} ${r.encrypted.id}`
        : `Saved as runs #${r.raw.id} (raw), #${r.encrypted.id} (dm-crypt) and #${writes} (dm-crypt, writes through the filesystem): diskdelta compare ${r.raw.id} ${r.encrypted.id} ${writes}`,
    );
  }
  return `${out.join('\n')}\n`;
}
