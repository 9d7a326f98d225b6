// system/: what DiskDelta knows about the machine under a measurement. The orchestrator calls
// describeTarget before a run (bench/result-warnings.ts then judges each figure against these
// facts); the CLI shows the rest. The fact types live in model/machine.ts.
export { describeTarget, inspectPath, type InspectReport } from './describe.ts';
export { trimVerdict, type TrimVerdict } from '../../shared/analysis/trim-verdict.ts';
export { lowestCeiling } from './ceiling.ts';
export { listBlockDevices, readBlockDevice } from './block-devices.ts';
export { readSystemFacts } from './cpu-memory.ts';
export { stackWarnings, directIoTrusted } from './fs-warnings.ts';
export type { RootOptions } from './sysfs.ts';
export { watchOtherCpu, type OtherCpuUse } from './cpu-load.ts';
export { readFillLevel } from './fill-level.ts';
