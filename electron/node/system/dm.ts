// Device-mapper layers: what sysfs tells anyone (name, uuid, the devices below) and what only
// `dmsetup table` tells root (the crypt cipher, key size and flags). The table format is the
// kernel's own target-line format, not a human report, so parsing it is stable.
import { execFile } from 'node:child_process';
import { readText, isLiveRoot, type Read } from './sysfs.ts';
import { stderrTail } from '../../shared/model/stderr-tail.ts';

export interface DmTarget {
  start: number;
  length: number;
  type: string; // crypt, linear, striped, raid, thin …
  args: string[];
}

/** `dmsetup table` output: "NAME: START LENGTH TYPE ARGS…", one line per target. */
export function parseDmTables(text: string): Map<string, DmTarget[]> {
  const tables = new Map<string, DmTarget[]>();
  for (const line of text.split('\n')) {
    const match = /^(\S+):\s+(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/.exec(line.trim());
    if (!match) continue;
    const name = match[1]!;
    const list = tables.get(name) ?? [];
    list.push({ start: Number(match[2]), length: Number(match[3]), type: match[4]!, args: match[5]!.split(/\s+/).filter(Boolean) });
    tables.set(name, list);
  }
  return tables;
}

export interface CryptTable {
  cipher: string;
  /** Bits of key material dm-crypt holds (XTS splits it in two: 512 → AES-256). */
  keyBits: number | null;
  /** The block cipher's own key size, e.g. 256 for aes-xts-plain64 with a 512-bit key. */
  cipherKeyBits: number | null;
  keyInKeyring: boolean;
  device: string;
  offsetSectors: number;
  flags: string[];
  sectorSize: number | null;
}

/** crypt target args: <cipher> <key> <iv_offset> <device> <offset> [<#opt> <opt>…]. */
export function parseCryptArgs(args: string[]): CryptTable | null {
  if (args.length < 5) return null;
  const [cipher, key, , device, offset] = args as [string, string, string, string, string];
  let keyBytes: number | null = null;
  // A keyring reference is ":<size in bytes>:<type>:<description>" (LUKS2); otherwise the key
  // is hex — printed as zeros of the same length unless --showkeys, so the length is still true.
  const keyring = key.startsWith(':');
  if (keyring) keyBytes = Number(key.split(':')[1]) || null;
  else if (/^[0-9a-f]+$/i.test(key) && key.length % 2 === 0) keyBytes = key.length / 2;
  const optCount = Number(args[5] ?? 0);
  const flags = args.slice(6, 6 + (Number.isInteger(optCount) ? optCount : 0));
  const sector = flags.find((f) => f.startsWith('sector_size:'));
  const keyBits = keyBytes === null ? null : keyBytes * 8;
  const keyCount = Number(/^[^-]+:(\d+)-/.exec(cipher)?.[1] ?? 1);
  const halves = /-xts-/.test(cipher) || /xts\(/.test(cipher) ? 2 : 1;
  return {
    cipher,
    keyBits,
    cipherKeyBits: keyBits === null || /^capi:/.test(cipher) ? null : keyBits / halves / keyCount,
    keyInKeyring: keyring,
    device,
    offsetSectors: Number(offset),
    flags,
    sectorSize: sector ? Number(sector.split(':')[1]) : null,
  };
}

export type DmKind = 'crypt-luks1' | 'crypt-luks2' | 'crypt-plain' | 'crypt' | 'lvm' | 'multipath' | 'verity' | 'other';

/** The uuid a dm device was created with says who created it and why. */
export function dmKindFromUuid(uuid: string | null): DmKind {
  if (!uuid) return 'other';
  if (uuid.startsWith('CRYPT-LUKS1-')) return 'crypt-luks1';
  if (uuid.startsWith('CRYPT-LUKS2-')) return 'crypt-luks2';
  if (uuid.startsWith('CRYPT-PLAIN-')) return 'crypt-plain';
  if (uuid.startsWith('CRYPT-VERITY-')) return 'verity';
  if (uuid.startsWith('CRYPT-')) return 'crypt';
  if (uuid.startsWith('LVM-')) return 'lvm';
  if (uuid.startsWith('mpath-')) return 'multipath';
  return 'other';
}

/** LVM names dm devices "VG-LV" with every "-" inside a name doubled. */
export function splitLvmName(dmName: string): { vg: string; lv: string } | null {
  const match = /^((?:[^-]|--)+)-((?:[^-]|--)+)$/.exec(dmName);
  if (!match) return null;
  return { vg: match[1]!.replace(/--/g, '-'), lv: match[2]!.replace(/--/g, '-') };
}

/**
 * All dm tables. Live: `dmsetup table` when running as root (it opens /dev/mapper/control);
 * otherwise unknown with the reason. Fixture trees keep a capture of the same command's
 * output in cmd/dmsetup-table.txt.
 */
export async function readDmTables(root: string): Promise<Read<Map<string, DmTarget[]>>> {
  if (!isLiveRoot(root)) {
    const capture = await readText(root, '/cmd/dmsetup-table.txt');
    if (capture.value === null) return { value: null, reason: 'no dmsetup table capture in this snapshot' };
    return { value: parseDmTables(capture.value) };
  }
  if (process.getuid?.() !== 0) {
    return { value: null, reason: 'cipher and flags need `dmsetup table`, which needs root' };
  }
  return new Promise((resolve) => {
    execFile('dmsetup', ['table'], { timeout: 5000, killSignal: 'SIGKILL', encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) {
        const why =
          (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'dmsetup is not installed' : (stderrTail(stderr, 1)[0] ?? error.message);
        resolve({ value: null, reason: `dmsetup table failed: ${why}` });
      } else {
        resolve({ value: parseDmTables(stdout) });
      }
    });
  });
}
