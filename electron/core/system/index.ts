// system/: what DiskDelta knows about the machine under a measurement. The orchestrator calls
// describeTarget before a run and resultWarnings for each figure; the CLI shows the rest.
export { describeTarget, inspectPath, type InspectReport } from './describe.ts';
export { trimVerdict, type TrimVerdict } from './trim-verdict.ts';
export { resultWarnings, lowestCeiling, likelyWriteCacheBytes, type ResultWarningInput } from './result-warnings.ts';
export { listBlockDevices, readBlockDevice } from './block-devices.ts';
export { readSystemFacts } from './cpu-memory.ts';
export { stackWarnings, directIoTrusted } from './fs-warnings.ts';
export type { RootOptions } from './sysfs.ts';
export type * from './types.ts';
