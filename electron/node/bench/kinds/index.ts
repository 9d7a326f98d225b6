// THE table of measurement kinds. A kind runs the catalog tests whose TestDef.kind is its id
// (model/catalog.ts); adding one is an entry here, its own module next to this one and, if it
// shows something new, its view in the renderer (docs/measurement-kinds.md).
import type { MeasurementKind } from './kind.ts';
import { rateKind } from './rate.ts';
import { workloadKind } from './workload.ts';
import { workingSetKind } from './working-set.ts';
import { accessRecorderKind } from './access-recorder.ts';
import { sustainedWriteKind } from './sustained-write.ts';

export const KINDS: ReadonlyArray<MeasurementKind<unknown>> = [
  rateKind,
  workloadKind,
  workingSetKind,
  accessRecorderKind,
  sustainedWriteKind,
];

export function kindById(id: string): MeasurementKind<unknown> | undefined {
  return KINDS.find((k) => k.id === id);
}
