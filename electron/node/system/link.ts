// Link ceilings: the most a negotiated link can carry after its line encoding, in bytes per
// second. Real transfers stay below (command and protocol overhead), so a measurement above
// the ceiling did not come from the drive: it came from a cache.

export interface LinkCeiling {
  bytesPerSec: number | null;
  description: string | null;
  reason?: string;
}

const unknown = (reason: string): LinkCeiling => ({ bytesPerSec: null, description: null, reason });

/** libata's sata_spd: "1.5 Gbps", "3.0 Gbps", "6.0 Gbps", or "<unknown>" with no link. */
export function sataCeiling(spd: string): LinkCeiling {
  const match = /^\s*(\d+(?:\.\d+)?)\s*Gbps\s*$/i.exec(spd);
  if (!match) return unknown(`SATA link speed '${spd.trim()}' is not negotiated (PATA, or no link up)`);
  const gbps = Number(match[1]);
  // 8b/10b: 10 line bits per data byte, so 3.0 Gb/s carries 300 MB/s.
  return { bytesPerSec: Math.round(gbps * 1e8), description: `SATA ${gbps.toFixed(1)} Gb/s` };
}

/** Per-lane transfer rate (GT/s) → PCIe generation and line-code efficiency. */
const PCIE_GENERATIONS: Array<{ gts: number; gen: string; efficiency: number }> = [
  { gts: 2.5, gen: '1.0', efficiency: 8 / 10 },
  { gts: 5, gen: '2.0', efficiency: 8 / 10 },
  { gts: 8, gen: '3.0', efficiency: 128 / 130 },
  { gts: 16, gen: '4.0', efficiency: 128 / 130 },
  { gts: 32, gen: '5.0', efficiency: 128 / 130 },
  // PCIe 6 uses FLIT mode: 242 of every 256 bytes carry data.
  { gts: 64, gen: '6.0', efficiency: 242 / 256 },
];

/** PCI sysfs current_link_speed ("8.0 GT/s PCIe", older kernels "8 GT/s") and current_link_width ("4"). */
export function pcieCeiling(speed: string, width: string): LinkCeiling {
  const match = /^\s*(\d+(?:\.\d+)?)\s*GT\/s/i.exec(speed);
  const lanes = Number(width.trim());
  if (!match) return unknown(`PCIe link speed '${speed.trim()}' is not known`);
  if (!Number.isInteger(lanes) || lanes <= 0) return unknown(`PCIe link width '${width.trim()}' is not known`);
  const gts = Number(match[1]);
  const generation = PCIE_GENERATIONS.find((g) => g.gts === gts);
  if (!generation) return unknown(`PCIe rate ${gts} GT/s matches no PCIe generation`);
  const bytesPerSec = Math.round(((gts * 1e9 * generation.efficiency) / 8) * lanes);
  return { bytesPerSec, description: `PCIe ${generation.gen} x${lanes} (${gts} GT/s)` };
}

/** USB device sysfs `speed` in Mb/s: 1.5, 12, 480, 5000, 10000, 20000, 40000. */
export function usbCeiling(speedMbps: string): LinkCeiling {
  const mbps = Number(speedMbps.trim());
  const table: Record<number, { name: string; efficiency: number }> = {
    1.5: { name: 'USB 1.x low speed', efficiency: 1 },
    12: { name: 'USB 1.x full speed', efficiency: 1 },
    480: { name: 'USB 2.0 high speed', efficiency: 1 },
    5000: { name: 'USB 3.x 5 Gb/s', efficiency: 8 / 10 },
    10000: { name: 'USB 3.x 10 Gb/s', efficiency: 128 / 132 },
    20000: { name: 'USB 3.2 20 Gb/s', efficiency: 128 / 132 },
    40000: { name: 'USB4 40 Gb/s', efficiency: 128 / 132 },
  };
  const entry = table[mbps];
  if (!entry) return unknown(`USB speed '${speedMbps.trim()}' Mb/s is not a USB signalling rate`);
  return { bytesPerSec: Math.round((mbps * 1e6 * entry.efficiency) / 8), description: `${entry.name} (${speedMbps.trim()} Mb/s)` };
}
