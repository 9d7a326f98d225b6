// Display units. The model stores raw units (bytes/s, IOPS, ns); every figure shown to a
// person goes through here so that it always carries its unit label.
//
// Throughput units:
//   MB  = 10^6 bytes/s  (the default: what drive makers and CrystalDiskMark print)
//   MiB = 2^20 bytes/s
//   KB  = 2^10 bytes/s  (bonnie++'s "K/sec" is KiB/s; we label it "KiB/s" so nobody reads 10^3)

export const THROUGHPUT_UNITS = ['MB', 'MiB', 'KB'] as const;
export type ThroughputUnit = (typeof THROUGHPUT_UNITS)[number];

const BYTES_PER_UNIT: Record<ThroughputUnit, number> = { MB: 1e6, MiB: 2 ** 20, KB: 2 ** 10 };

const UNIT_LABEL: Record<ThroughputUnit, string> = { MB: 'MB/s', MiB: 'MiB/s', KB: 'KiB/s' };

const UNIT_DESCRIPTION: Record<ThroughputUnit, string> = {
  MB: 'MB/s (10^6 bytes/s)',
  MiB: 'MiB/s (2^20 bytes/s)',
  KB: 'KiB/s (2^10 bytes/s, bonnie++\'s "K/sec")',
};

/** Accepts what people type: MB, MB/s, mb, MiB, KB, KiB, K, K/sec. */
export function parseThroughputUnit(text: string): ThroughputUnit | null {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/\/s(ec)?$/, '');
  if (key === 'mb') return 'MB';
  if (key === 'mib') return 'MiB';
  if (key === 'kb' || key === 'kib' || key === 'k') return 'KB';
  return null;
}

export function throughputLabel(unit: ThroughputUnit): string {
  return UNIT_LABEL[unit];
}

export function describeThroughputUnit(unit: ThroughputUnit): string {
  return UNIT_DESCRIPTION[unit];
}

export function bytesPerSecTo(bytesPerSec: number, unit: ThroughputUnit): number {
  return bytesPerSec / BYTES_PER_UNIT[unit];
}

export function bytesPerSecFrom(value: number, unit: ThroughputUnit): number {
  return value * BYTES_PER_UNIT[unit];
}

/**
 * One formatter made once. In Chromium, toLocaleString('en-US') builds a new one on every call:
 * 20–30 µs against ~1 µs (Node caches it, so a Node test cannot see this). The Fleet page
 * formats thousands of figures: 83 ms of its first draw of 1,000 hosts in a Chromium profile.
 */
const GROUPED = new Intl.NumberFormat('en-US');

// JavaScript's own number text turns to exponent notation at the ends of the range: toFixed from
// 1e21 up ("×3.0145556583998014e+21 faster" was printed once, #38), toPrecision below 1e-6 and
// from 10^digits up ("×1.23e+4"), String() for both. A person reads neither, and every figure,
// ratio and percent shown goes through the two functions below instead.
const plainFormats = new Map<string, Intl.NumberFormat>();
function plainFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = plainFormats.get(key);
  if (!format) plainFormats.set(key, (format = new Intl.NumberFormat('en-US', { useGrouping: false, ...options })));
  return format;
}

/** The figures below this are printed as "<" it: thirty zeros after the point say nothing more. */
const SMALLEST_SHOWN = 1e-12;

/** x.toFixed(decimals), never in exponent notation (toFixed switches at 1e21). */
export function fixedDecimals(x: number, decimals: number): string {
  if (!Number.isFinite(x) || Math.abs(x) < 1e21) return x.toFixed(decimals);
  return plainFormat({ minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(x);
}

/** x.toPrecision(digits), never in exponent notation: 12,345 at 3 digits is "12300", 1.234e-7 is "0.000000123". */
export function significantDigits(x: number, digits: number): string {
  if (!Number.isFinite(x) || x === 0) return x.toFixed(Math.max(0, digits - 1));
  if (Math.abs(x) < SMALLEST_SHOWN) return `${x < 0 ? '>-' : '<'}${fixedDecimals(SMALLEST_SHOWN, 12)}`;
  return plainFormat({ minimumSignificantDigits: digits, maximumSignificantDigits: digits }).format(x);
}

/** x with fixed decimals and thousands separators ("1,599", "12,345.6"), never in exponent notation. */
export function groupedDecimals(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return x.toFixed(decimals);
  return plainFormat({ useGrouping: true, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(x);
}

/** x as Intl options say, with thousands separators, on a formatter made once: "1,770", "15.2", "0.0029". */
export function groupedFormat(x: number, options: Intl.NumberFormatOptions): string {
  return plainFormat({ useGrouping: true, ...options }).format(x);
}

/** A count with thousands separators (12,345 files), on the one formatter. */
export function formatCount(value: number): string {
  return GROUPED.format(Math.round(value));
}

/**
 * A plain number with precision that suits its size: thousands get separators and no
 * decimals (40,300), whole numbers as they are (98), hundreds one decimal (135.9), smaller
 * numbers two (41.27), tiny ones three significant digits.
 */
export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) return GROUPED.format(Math.round(value));
  // Whole numbers as files print them (bonnie++'s "98" % CPU), not "98.00".
  if (Number.isInteger(value)) return String(value);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1 || abs === 0) return value.toFixed(2);
  return significantDigits(value, 3);
}

/**
 * An axis tick: a round value the chart chose, so formatNumber's fixed precision only adds
 * zeros ("0.700", "0.00200", "2.50"); the tick keeps its significant digits and drops those.
 */
export function formatTick(value: number): string {
  const text = formatNumber(value);
  return text.includes('.') && !text.includes('e') ? text.replace(/\.?0+$/, '') : text;
}

export function formatThroughput(bytesPerSec: number, unit: ThroughputUnit = 'MB'): string {
  return `${formatNumber(bytesPerSecTo(bytesPerSec, unit))} ${UNIT_LABEL[unit]}`;
}

/** Same precision rule as formatNumber, so bonnie++'s 151.4 seeks/s keeps its decimal. */
export function formatIops(iops: number, label = 'IOPS'): string {
  return `${formatNumber(iops)} ${label}`;
}

/** Nanoseconds in the largest unit that keeps the figure ≥ 1: "85.3 µs", "8.20 ms", "1.25 s". */
export function formatLatency(ns: number): string {
  const abs = Math.abs(ns);
  if (abs >= 1e9) return `${formatNumber(ns / 1e9)} s`;
  if (abs >= 1e6) return `${formatNumber(ns / 1e6)} ms`;
  if (abs >= 1e3) return `${formatNumber(ns / 1e3)} µs`;
  return `${formatNumber(ns)} ns`;
}

/** Byte sizes in binary units, as block sizes and test files are chosen: "4 KiB", "1 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let i = 0;
  while (Math.abs(value) >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  const text = Number.isInteger(value) ? fixedDecimals(value, 0) : fixedDecimals(value, value >= 100 ? 0 : value >= 10 ? 1 : 2);
  return `${text} ${units[i]}`;
}

/**
 * "×3.29", "×0.53", "×69.5", "×123", "×1,599": about three significant digits, two decimals below 10.
 * A fall is said as a factor when it is what counts: for a lower-is-better figure (latency
 * 98 ms → 461 µs is "213× lower") and for any ratio under 0.1, which "×0.00" would hide.
 */
export function formatRatio(ratio: number, direction: 'higher' | 'lower' | 'none' = 'higher'): string {
  if (!Number.isFinite(ratio)) return '×∞';
  if (ratio > 0 && ratio < 1 && (direction === 'lower' || ratio < 0.1)) return `${threeDigits(1 / ratio)}× lower`;
  return `×${threeDigits(ratio)}`;
}

function threeDigits(x: number): string {
  const abs = Math.abs(x);
  return groupedDecimals(x, abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
}

/** "+229.2 %", "-47.4 %", "±0.0 %". */
export function formatPercent(percent: number): string {
  if (!Number.isFinite(percent)) return percent > 0 ? '+∞ %' : '-∞ %';
  // Grouped as every other figure: "+6,851.1 %", never "+6851.1 %" (#43).
  const text = groupedDecimals(Math.abs(percent), 1);
  if (text === '0.0') return '±0.0 %';
  return `${percent > 0 ? '+' : '-'}${text} %`;
}
