// The dm-crypt lab's comparison of `diskdelta-worker ciphers` with `cryptsetup benchmark`, in
// ABBA rounds (cryptsetup, ours, ours, cryptsetup; ours kept and re-keyed in mirrored order).
//
// Like with like. `cryptsetup benchmark` (2.6, lib/crypto_backend/cipher_check.c and
// src/cryptsetup.c) times passes over a 1 MiB buffer in 64 KiB requests for at least 1 s per
// direction, and each pass makes a new AF_ALG transform (socket, bind, key, accept) and closes
// it. The worker's own figure keys one transform once, as dm-crypt keys its mapping once. Under
// the lab's emulated CPU making and keying a transform is dear: in 30 interleaved rounds of
// 0.25 s in one boot a transform kept read 1.11× (512-bit) and 1.24× (256-bit) a new one per MiB
// (medians of the rounds): most of why CI read the worker's figure 1.15–1.35× cryptsetup's, the
// rest the host's noise.
// So the worker is compared with cryptsetup on cryptsetup's method (`--rekey 1048576`), and the
// ratio of its own figure to cryptsetup's is printed as what re-keying costs, never judged.
//
// Its count, too: cryptsetup counts one pass more than it ran (`repeat` starts at 1), i.e. it
// reports (n + 1) MiB over n passes' time T, with T from 1 s to 1 s + one pass. What it measured
// is the report less 1 MiB / T; T is taken as 1 s, off by at most one pass's share of a MiB/s.
import { median } from '../electron/shared/analysis/statistics.ts';

export interface CryptsetupFigure {
  /** bytes/s as reported, and corrected for the extra pass. */
  reported: { enc: number; dec: number };
  measured: { enc: number; dec: number };
}

const MIB = 1048576;

/** One `cryptsetup benchmark -c aes-xts -s BITS` result line ("aes-xts 512b 38.5 MiB/s 28.7 MiB/s"). */
export function parseCryptsetupLine(line: string): CryptsetupFigure {
  const m = /aes-xts\s+\d+b\s+([\d.]+)\s+MiB\/s\s+([\d.]+)\s+MiB\/s/.exec(line);
  if (!m) throw new Error(`not a cryptsetup benchmark line: ${line}`);
  const enc = Number(m[1]);
  const dec = Number(m[2]);
  return {
    reported: { enc: enc * MIB, dec: dec * MIB },
    measured: { enc: Math.max(enc - 1, 0) * MIB, dec: Math.max(dec - 1, 0) * MIB },
  };
}

export interface CipherRounds {
  dir: 'enc' | 'dec';
  /** Per round: re-keyed worker / cryptsetup (the judged ratio), kept worker / cryptsetup, kept / re-keyed. */
  rekeyed: number[];
  kept: number[];
  rekeyCost: number[];
  /** Medians, bytes/s: cryptsetup (corrected), the worker re-keyed, the worker's own figure. */
  cryptsetup: number;
  workerRekeyed: number;
  workerKept: number;
}

/**
 * `cs`: cryptsetup's lines, two per round (first and last of it); `kept`, `rekeyed`: the worker's
 * "cipher" lines, one of each per round. Each round's ratio is against the mean of its two
 * cryptsetup figures, so a drift within the round hits both sides alike.
 */
export function cipherRounds(cs: string[], kept: string[], rekeyed: string[]): CipherRounds[] {
  const rounds = kept.length;
  if (rekeyed.length !== rounds || cs.length !== 2 * rounds) {
    throw new Error(`expected 2 cryptsetup lines and one of each worker figure per round: ${cs.length}, ${kept.length}, ${rekeyed.length}`);
  }
  const theirs = cs.map(parseCryptsetupLine);
  const ours = (lines: string[]) =>
    lines.map((l) => {
      const m = JSON.parse(l) as { backend?: string; encrypt_bps?: number; decrypt_bps?: number };
      if (m.backend !== 'af_alg') throw new Error(`the worker measured with ${m.backend}, not the kernel crypto API: ${l}`);
      return { enc: m.encrypt_bps ?? 0, dec: m.decrypt_bps ?? 0 };
    });
  const k = ours(kept);
  const r = ours(rekeyed);
  return (['enc', 'dec'] as const).map((dir) => {
    const cryptsetup = Array.from({ length: rounds }, (_, i) => (theirs[2 * i]!.measured[dir] + theirs[2 * i + 1]!.measured[dir]) / 2);
    return {
      dir,
      rekeyed: r.map((x, i) => x[dir] / cryptsetup[i]!),
      kept: k.map((x, i) => x[dir] / cryptsetup[i]!),
      rekeyCost: k.map((x, i) => x[dir] / r[i]![dir]),
      cryptsetup: median(cryptsetup),
      workerRekeyed: median(r.map((x) => x[dir])),
      workerKept: median(k.map((x) => x[dir])),
    };
  });
}
