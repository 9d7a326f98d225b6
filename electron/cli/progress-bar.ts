// A one-line live progress bar for a terminal: overall fraction, current test and phase, ETA.
import type { BenchEvent } from '../core/bench/spec.ts';

type Progress = Extract<BenchEvent, { type: 'progress' }>;

export class ProgressBar {
  private readonly out: NodeJS.WriteStream;
  private lastDrawMs = 0;
  private drawn = false;

  constructor(out: NodeJS.WriteStream) {
    this.out = out;
  }

  update(p: Progress): void {
    const now = Date.now();
    if (now - this.lastDrawMs < 100 && p.fraction < 1) return; // a terminal needs no more than 10 frames/s
    this.lastDrawMs = now;
    const width = 30;
    const filled = Math.round(Math.min(1, Math.max(0, p.fraction)) * width);
    const what =
      p.phase === 'prepare' ? 'writing the test file' : `${p.test ?? ''} ${p.phase === 'warmup' ? 'warm-up' : `run ${p.run}/${p.runs}`}`;
    const eta = p.etaSec === null ? '' : ` ETA ${Math.ceil(p.etaSec)} s`;
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(p.fraction * 100).toFixed(0).padStart(3)} % test ${p.testIndex + 1}/${p.testCount} ${what}${eta}`;
    this.out.write(`\r\x1b[2K${line.slice(0, (this.out.columns || 100) - 1)}`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.out.write('\r\x1b[2K');
    this.drawn = false;
  }
}
