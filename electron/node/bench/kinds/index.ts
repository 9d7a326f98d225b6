// THE table of measurement kinds. A kind runs the catalog tests whose TestDef.kind is its id
// (model/catalog.ts); adding one is an entry here, its own module next to this one and, if it
// shows something new, its view in the renderer (docs/measurement-kinds.md).
import type { MeasurementKind } from './kind.ts';
import { kindOfTest } from '../../../shared/model/catalog.ts';
import { DEFAULT_PRESET, PRESETS } from '../../../shared/catalog/presets.ts';
import type { BenchSpec } from '../../../shared/model/spec.ts';
import { rateKind } from './rate.ts';
import { workloadKind } from './workload.ts';
import { workingSetKind } from './working-set.ts';
import { accessRecorderKind } from './access-recorder.ts';
import { sustainedWriteKind } from './sustained-write.ts';
import { surfaceKind } from './surface.ts';

export const KINDS: ReadonlyArray<MeasurementKind<unknown>> = [
  rateKind,
  workloadKind,
  workingSetKind,
  accessRecorderKind,
  sustainedWriteKind,
  surfaceKind,
];

export function kindById(id: string): MeasurementKind<unknown> | undefined {
  return KINDS.find((k) => k.id === id);
}

/**
 * Whether a run of `spec` times the disk and so takes the machine-wide disk lock (and the run
 * manager's one-run-per-disk place): a run whose every test is of a kind that measures nothing
 * (a working-set scan, a recording) does neither. A test no kind claims counts as measuring.
 */
export function specMeasuresDisk(spec: Pick<BenchSpec, 'tests' | 'preset'>): boolean {
  const tests = spec.tests ?? PRESETS[spec.preset ?? DEFAULT_PRESET].tests;
  return tests.some((test) => {
    const id = kindOfTest(test);
    return (id ? kindById(id) : undefined)?.measuresDisk ?? true;
  });
}
