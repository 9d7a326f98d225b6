// The report's shape limits, shared by the API contract (which the renderer bundles), the
// CLI and the report model; kept apart so the contract does not pull in the report itself.
export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

/** Six columns of figures is what the full table fits across A4 and Letter in portrait. */
export const MAX_REPORT_RUNS = 6;
