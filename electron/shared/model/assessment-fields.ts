// The run ids an assessment holds, one per field: said once, for its schema (assessment-schema.ts,
// with zod) and for the steps (assessment.ts, which the page imports without zod).
export const ASSESSMENT_FIELDS = ['before', 'after', 'encrypted', 'discardOff', 'discardOn', 'workingSet'] as const;
