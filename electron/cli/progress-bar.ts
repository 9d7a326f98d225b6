// A one-line live progress bar for a terminal: overall fraction, current test and phase, ETA.
// Drawn through the terminal writer's status line (terminal.ts).
import type { BenchEvent } from '../shared/model/spec.ts';
import { clearStatusLine, drawStatusLine } from './terminal.ts';

type Progress = Extract<BenchEvent, { type: 'progress' }>;

export class ProgressBar {
  private lastDrawMs = 0;
  private drawn = false;

  update(p: Progress): void {
    const now = Date.now();
    if (now - this.lastDrawMs < 100 && p.fraction < 1) return; // a terminal needs no more than 10 frames/s
    this.lastDrawMs = now;
    const width = 30;
    const filled = Math.round(Math.min(1, Math.max(0, p.fraction)) * width);
    const what =
      p.phase === 'prepare' ? 'writing the test file' : `${p.test ?? ''} ${p.phase === 'warmup' ? 'warm-up' : `run ${p.run}/${p.runs}`}`;
    const eta = p.etaSec === null ? '' : ` ETA ${Math.ceil(p.etaSec)} s`;
    drawStatusLine(
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(p.fraction * 100).toFixed(0).padStart(3)} % test ${p.testIndex + 1}/${p.testCount} ${what}${eta}`,
    );
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) clearStatusLine();
    this.drawn = false;
  }
}
