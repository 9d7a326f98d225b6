// Second stage of progress throttling (the worker is the first): whatever the backend emits,
// the renderer receives at most one progress event per run and one batch of samples per
// interval (100 ms → ≤ 10/s). Warnings and the end of a run are never dropped; they flush
// what is pending first so that the order progress → finished holds.
//
// This is the one place samples are batched: the run manager hands each sample to sample(),
// and only the coalescer sends 'run.samples'.
import { sampleEventSchema as sampleSchema } from '../../shared/model/bench-events.ts';
import { events, type EventName, type EventPayload } from '../../shared/contract/contract.ts';

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export type Sample = EventPayload<'run.samples'>['samples'][number];

/** Where the backend hands one live sample of a run: batched into 'run.samples' events. */
export type SampleSink = (runId: string, sample: Sample) => void;

export interface Coalescer {
  emit: EventSink;
  sample: SampleSink;
  flush(): void;
  close(): void;
}

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
      throw new Error("'run.samples' is sent by the coalescer alone: hand each sample to sample(), which batches them");
    } else {
      flush();
      send(event, checked);
    }
  };

  const sample: SampleSink = (runId, s) => {
    const checked = sampleSchema.parse(s);
    const batch = samples.get(runId);
    if (batch) batch.push(checked);
    else samples.set(runId, [checked]);
    schedule();
  };

  return {
    emit,
    sample,
    flush,
    close() {
      flush();
    },
  };
}
