// The fleet's procedures' schemas (issue #26): what `fleet.compare` answers is the fleet
// compare itself (analysis/fleet-compare.ts) and the fleet measurements it can be narrowed to
// (analysis/fleet-runs.ts). Kept beside contract.ts, which lists the procedures.
import { z } from 'zod';
import { THROUGHPUT_UNITS } from '../analysis/units.ts';
import { FLEET_FIGURES, type FleetComparison, type FleetFigureId } from '../analysis/fleet-compare.ts';
import type { FleetGroup } from '../analysis/fleet-runs.ts';
import { PAPERS } from '../report/paper.ts';

/** More hosts than any fleet the page is for; every id is a run the library holds. */
export const MAX_FLEET_RUNS = 20_000;

const figureId = z.enum(FLEET_FIGURES.map((f) => f.id) as [FleetFigureId, ...FleetFigureId[]]);
const runIds = z.array(z.number().int().positive()).min(1).max(MAX_FLEET_RUNS);

export const fleetComparisonSchema = z.object({
  rows: z.array(
    z.object({
      host: z.string(),
      runId: z.number().int().nullable(),
      device: z.string().nullable(),
      deviceClass: z.enum(['hdd', 'ssd', 'unknown']),
      figures: z.partialRecord(figureId, z.number()),
      outliers: z.array(z.object({ figure: figureId, side: z.enum(['low', 'high']) })),
      verdict: z.string(),
      flags: z.array(z.string()),
    }),
  ),
  stats: z.array(z.object({ figure: figureId, hosts: z.number().int(), p10: z.number(), median: z.number(), p90: z.number() })),
  summary: z.string(),
  superseded: z.array(z.string()),
}) satisfies z.ZodType<FleetComparison>;

export const fleetGroupSchema = z.object({
  key: z.string(),
  createdAt: z.string(),
  hosts: z.number().int(),
  runIds: z.array(z.number().int().positive()),
}) satisfies z.ZodType<FleetGroup>;

export const fleetProcedures = {
  /** Every fleet measurement of the library, and the fleet compare of `runIds` (default: all; the newest run of each host stands for it). */
  'fleet.compare': {
    input: z.object({ runIds: runIds.optional() }).strict(),
    output: z.object({ groups: z.array(fleetGroupSchema), fleet: fleetComparisonSchema.nullable() }),
  },
  /** The fleet report of the same runs, as a file to save. */
  'fleet.report': {
    input: z
      .object({ runIds: runIds.optional(), format: z.enum(['pdf', 'html']), paper: z.enum(PAPERS), unit: z.enum(THROUGHPUT_UNITS) })
      .strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), contentBase64: z.string() }),
  },
} as const;
