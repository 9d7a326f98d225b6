// The names of the contract's procedures and events, and the IPC channels derived from them,
// without the schemas: what the sandboxed preload needs, which must not bundle zod (216 KB,
// and its `new Function` probe trips the window's CSP) to read a list of names. contract.ts
// keys its schemas by these names and the type checker holds the two to each other (a
// missing or extra key fails `satisfies`), and contract.ts checks their order when it loads.
export const PROCEDURE_NAMES = [
  'system.overview',
  'system.describeTarget',
  'dialog.pickFolder',
  'runs.start',
  'runs.cancel',
  'runs.active',
  'library.list',
  'library.get',
  'library.relabel',
  'library.delete',
  'library.import',
  'library.export',
  'references.list',
  'crypto.ciphers',
  'compare.load',
  'report.render',
  'fleet.compare',
  'fleet.report',
  'assessments.list',
  'assessments.get',
  'assessments.start',
  'assessments.set',
  'assessments.report',
  'forecast.candidates',
  'assessments.setCandidates',
  'assessments.candidates',
] as const;
export type ProcedureName = (typeof PROCEDURE_NAMES)[number];

export const EVENT_NAMES = ['run.progress', 'run.samples', 'run.warning', 'import.progress', 'run.finished'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

const PROCEDURE_SET: ReadonlySet<string> = new Set(PROCEDURE_NAMES);
const EVENT_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isProcedureName(name: string): name is ProcedureName {
  return PROCEDURE_SET.has(name);
}

export function isEventName(name: string): name is EventName {
  return EVENT_SET.has(name);
}

/** The Electron IPC channel of a procedure or event: derived, never written by hand. */
export function ipcChannel(kind: 'invoke' | 'event', name: ProcedureName | EventName): string {
  return `diskdelta:${kind}:${name}`;
}
