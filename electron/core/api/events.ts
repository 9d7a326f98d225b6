// Second stage of progress throttling (the worker is the first): whatever the backend emits,
// the renderer receives at most one progress event per run and one batch of samples per
// interval (100 ms → ≤ 10/s). Warnings and the end of a run are never dropped; they flush
// what is pending first so that the order progress → finished holds.
import { events, type EventName, type EventPayload } from './contract.ts';

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface Coalescer {
  emit: EventSink;
  flush(): void;
  close(): void;
}

type Sample = EventPayload<'run.samples'>['samples'][number];

export function createCoalescer(send: EventSink, intervalMs = 100): Coalescer {
  const progress = new Map<string, EventPayload<'run.progress'>>();
  const samples = new Map<string, Sample[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastFlush = Date.now();
    for (const [runId, batch] of samples) send('run.samples', { runId, samples: batch });
    samples.clear();
    for (const payload of progress.values()) send('run.progress', payload);
    progress.clear();
  };

  const schedule = () => {
    if (timer) return;
    const wait = Math.max(0, lastFlush + intervalMs - Date.now());
    timer = setTimeout(flush, wait);
  };

  const emit: EventSink = (event, payload) => {
    // A payload the contract refuses is a bug in the emitter: fail loudly here, not in the UI.
    const checked = events[event].parse(payload) as EventPayload<typeof event>;
    if (event === 'run.progress') {
      const p = checked as EventPayload<'run.progress'>;
      progress.set(p.runId, p);
      schedule();
    } else if (event === 'run.samples') {
      const s = checked as EventPayload<'run.samples'>;
      const batch = samples.get(s.runId) ?? [];
      batch.push(...s.samples);
      samples.set(s.runId, batch);
      schedule();
    } else {
      flush();
      send(event, checked);
    }
  };

  return {
    emit,
    flush,
    close() {
      flush();
    },
  };
}
