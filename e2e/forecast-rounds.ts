// The dm-crypt lab's check of the forecast model in alternating rounds: in one guest boot the
// worker measures the same tests on a plain filesystem and on one over dm-crypt, and the
// cipher between them, round after round (the order mirrored every other round: plain,
// cipher, dm-crypt, then dm-crypt, cipher, plain), so the cipher is always measured next to
// the mapping it forecasts. Each round's forecast is the product's own: the cipher figures
// parsed as `diskdelta ciphers` parses them (crypto/cipher-ceilings.ts), the rates and the
// forecast of analysis/encryption.ts (what `encryption`, `compare` and the reports'
// encryption story use), from that round's plain figure and cipher. The ratio forecast /
// measured of every round is what judge-rounds.ts judges.
import { parseCipherOutput } from '../electron/node/crypto/cipher-ceilings.ts';
import { cipherRates, forecastTest, type TestForecast } from '../electron/shared/analysis/encryption.ts';
import { resultWithoutRuns } from '../electron/node/formats/common.ts';
import { rateParams } from '../electron/node/bench/worker-argv.ts';

/** One round's worker output: `run` on the plain folder, `run` on the dm-crypt one, `ciphers`. */
export interface RoundOutput {
  plain: string;
  dmcrypt: string;
  cipher: string;
}

export interface TestRounds {
  test: string;
  /** Per round, bytes/s: the plain figure, the measured dm-crypt one, and the forecast of it. */
  plain: number[];
  dmcrypt: number[];
  forecast: TestForecast[];
  /** forecast / measured, per round. */
  ratios: number[];
}

/** bytes/s per test of a worker `run`'s ndjson (its "result" lines). */
export function runFigures(ndjson: string): Map<string, number> {
  const figures = new Map<string, number>();
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line) as { type?: string; name?: string; bytes_per_sec?: number };
    if (m.type === 'result' && m.name && typeof m.bytes_per_sec === 'number') figures.set(m.name, m.bytes_per_sec);
  }
  return figures;
}

/** Per test, every round's plain, measured and forecast figures and their ratio; throws naming a round that lacks one. */
export function forecastRounds(rounds: RoundOutput[], tests: string[], cipher: string, keyBits: number): TestRounds[] {
  const byTest = tests.map((test): TestRounds => ({ test, plain: [], dmcrypt: [], forecast: [], ratios: [] }));
  rounds.forEach((round, i) => {
    const rates = cipherRates(parseCipherOutput(round.cipher, null, 0), cipher, keyBits);
    if (!rates) throw new Error(`round ${i + 1}: the worker measured no ${cipher} ${keyBits}-bit figure:\n${round.cipher.slice(-800)}`);
    const plain = runFigures(round.plain);
    const dmcrypt = runFigures(round.dmcrypt);
    for (const t of byTest) {
      const raw = plain.get(t.test);
      const measured = dmcrypt.get(t.test);
      if (raw === undefined || measured === undefined || measured <= 0) {
        throw new Error(`round ${i + 1}: no ${t.test} figure ${raw === undefined ? 'on the plain folder' : 'through dm-crypt'}`);
      }
      const params = rateParams(t.test);
      const result = resultWithoutRuns({ test: t.test, params, bytesPerSec: raw, iops: raw / params.blockSize });
      const f = forecastTest(result, rates);
      if (!f) throw new Error(`round ${i + 1}: no forecast of ${t.test}`);
      t.plain.push(raw);
      t.dmcrypt.push(measured);
      t.forecast.push(f);
      t.ratios.push(f.estimatedBytesPerSec / measured);
    }
  });
  return byTest;
}
