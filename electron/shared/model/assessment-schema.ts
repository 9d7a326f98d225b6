// An upgrade assessment as the library keeps it, written once as zod schemas (the types in
// assessment.ts are inferred from them, as the result model's are from schemas.ts). The library
// checks every stored row against them and the API its outputs: a row that no longer fits is
// listed as such, never used (#38).
import { z } from 'zod';
import { ASSESSMENT_FIELDS } from './assessment-fields.ts';
import { candidateSpecSchema, MAX_CANDIDATES } from './candidate.ts';

const libraryId = z.number().int().positive();

/** The run a step held before it was deleted: its id, its label, when it was deleted (ISO). */
export const emptiedStepSchema = z.object({ run: libraryId, label: z.string(), at: z.string() });

/**
 * A candidate drive the assessment weighs before buying (issue #42): a spec sheet's contents
 * (kept whole: the file may be gone by the time the new disk is measured) or a disk run.
 */
export const storedCandidateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('spec'), source: z.string().max(1000), spec: candidateSpecSchema }),
  z.object({ kind: z.literal('run'), id: libraryId }),
]);

/** A stored candidate that no longer fits: its place in the list (from 1), its name where one is readable, what is wrong. */
export const unreadableCandidateSchema = z.object({
  position: z.number().int().positive(),
  name: z.string().nullable(),
  problem: z.string(),
});

/**
 * An upgrade assessment: run ids per step, and what deletions emptied. The fields: before (the
 * current disk, measured here or imported); after (the new disk: measured now or later, or picked
 * from imports and references); encrypted (the new disk under dm-crypt, measured; null: the
 * report forecasts it); discardOff and discardOn (discard-cost's two runs on the new disk);
 * workingSet (a working-set scan: how big the new disk must be). `emptied`: steps whose run was
 * deleted since they were set (kept by the library's trigger), said rather than silently empty.
 */
export const assessmentSchema = z.object({
  id: libraryId,
  label: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...(Object.fromEntries(ASSESSMENT_FIELDS.map((f) => [f, libraryId.nullable()])) as Record<
    (typeof ASSESSMENT_FIELDS)[number],
    z.ZodNullable<typeof libraryId>
  >),
  emptied: z.partialRecord(z.enum(ASSESSMENT_FIELDS), emptiedStepSchema),
  notes: z.string(),
  /** Candidate drives (migration 20); absent in an assessment read before it. */
  candidates: z.array(storedCandidateSchema).max(MAX_CANDIDATES).optional(),
  /** Candidate runs deleted from the library since the candidates were kept (migration 21's trigger); absent before it. */
  candidatesEmptied: z.array(emptiedStepSchema).optional(),
  /**
   * Stored candidates that no longer fit this version's model (a spec sheet a stricter check
   * refuses): each left out of `candidates` and said, so one does not make the whole assessment
   * unreadable. Absent when all fit.
   */
  candidatesUnreadable: z.array(unreadableCandidateSchema).optional(),
});

/** A stored assessment that no longer fits: listed with its id (any integer: the row's own), its name and what is wrong. */
export const unreadableAssessmentSchema = z.strictObject({ id: z.number().int(), label: z.string(), unreadable: z.string() });
