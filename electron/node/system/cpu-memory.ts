// CPU, memory and kernel facts that explain a result: AES instructions decide whether dm-crypt
// runs at GB/s or at the 70 MB/s of the 2011 laptop; RAM size decides what the page cache holds.
import { readText, rootOf, type RootOptions } from './sysfs.ts';
import { readFstrimTimer } from './fstrim.ts';
import type { Reasons, SystemFacts } from '../../shared/model/machine.ts';

/** Flags that speed up disk encryption: x86 AES-NI/VAES (+carry-less multiply, SHA), ARMv8 Crypto Extensions. */
const X86_CRYPTO = ['aes', 'vaes', 'pclmulqdq', 'vpclmulqdq', 'sha_ni', 'avx2', 'avx512f'];
const ARM_CRYPTO = ['aes', 'pmull', 'sha1', 'sha2', 'sha3', 'sha512', 'sm4'];

export interface CpuInfo {
  model: string | null;
  cores: number | null;
  threads: number | null;
  arch: 'x86' | 'arm' | null;
  cryptoFlags: string[];
}

export function parseCpuinfo(text: string): CpuInfo {
  const blocks = text.split(/\n\s*\n/).filter((b) => /^processor\s*:/m.test(b));
  const field = (block: string, key: string): string | null => {
    const match = new RegExp(`^${key}\\s*:\\s*(.*)$`, 'm').exec(block);
    return match ? match[1]!.trim() : null;
  };
  const first = blocks[0] ?? text;
  const x86Flags = field(first, 'flags');
  const armFeatures = field(first, 'Features');
  const arch = x86Flags !== null ? 'x86' : armFeatures !== null ? 'arm' : null;
  const present = new Set((x86Flags ?? armFeatures ?? '').split(/\s+/));
  const wanted = arch === 'arm' ? ARM_CRYPTO : X86_CRYPTO;
  // Physical cores: distinct (physical id, core id) pairs on x86; ARM lists one block per core.
  const pairs = new Set(blocks.map((b) => `${field(b, 'physical id')}/${field(b, 'core id')}`));
  const hasTopology = blocks.length > 0 && blocks.every((b) => field(b, 'core id') !== null);
  // ARM kernels often print no "model name"; the whole-text "Hardware"/"Model" lines name the SoC or board.
  const model = field(first, 'model name') ?? field(text, 'Hardware') ?? field(text, 'Model') ?? null;
  return {
    model,
    cores: blocks.length === 0 ? null : hasTopology ? pairs.size : blocks.length,
    threads: blocks.length === 0 ? null : blocks.length,
    arch,
    cryptoFlags: wanted.filter((f) => present.has(f)),
  };
}

/** MemTotal from /proc/meminfo, in bytes. */
export function parseMemTotal(text: string): number | null {
  const match = /^MemTotal:\s+(\d+)\s+kB/m.exec(text);
  return match ? Number(match[1]) * 1024 : null;
}

export async function readSystemFacts(opts?: RootOptions): Promise<SystemFacts> {
  const root = rootOf(opts);
  const reasons: Reasons = {};
  const cpuText = await readText(root, '/proc/cpuinfo');
  const memText = await readText(root, '/proc/meminfo');
  const kernel = await readText(root, '/proc/sys/kernel/osrelease');
  const cpu = cpuText.value === null ? null : parseCpuinfo(cpuText.value);
  if (cpuText.reason) reasons.cpu = cpuText.reason;
  else if (cpu && cpu.model === null) reasons.cpuModel = '/proc/cpuinfo names no model';
  const memoryBytes = memText.value === null ? null : parseMemTotal(memText.value);
  if (memText.reason) reasons.memoryBytes = memText.reason;
  else if (memoryBytes === null) reasons.memoryBytes = '/proc/meminfo has no MemTotal line';
  if (kernel.reason) reasons.kernel = kernel.reason;
  const facts: SystemFacts = {
    kernel: kernel.value,
    cpuModel: cpu?.model ?? null,
    cores: cpu?.cores ?? null,
    threads: cpu?.threads ?? null,
    arch: cpu?.arch ?? null,
    cryptoFlags: cpu?.cryptoFlags ?? [],
    memoryBytes,
    fstrimTimer: await readFstrimTimer(opts),
  };
  if (Object.keys(reasons).length > 0) facts.reasons = reasons;
  return facts;
}
