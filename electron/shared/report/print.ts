// The one way runs become a report file (renderReport): the document (report-model.ts), its
// HTML (the renderer's report view, handed in), and for PDF the printer of the front end
// (printer.ts), which is all that differs between the Electron app, the CLI and browser mode.
import type { RunRecord } from '../model/results.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import type { ThroughputUnit } from '../analysis/units.ts';
import { buildReport } from './report-model.ts';
import type { Assessment } from '../model/assessment.ts';
import type { Paper } from './paper.ts';
import { isPdf, ReportPrintError, type ReportHtml, type ReportPrinter } from './printer.ts';
import type { FleetComparison } from '../analysis/fleet-compare.ts';
import { buildFleetReport } from './fleet-report-model.ts';
import type { Forecast } from '../analysis/candidate-forecast.ts';
import type { JudgedCandidate } from '../analysis/candidate-judged.ts';

export type ReportFormat = 'pdf' | 'html';

export interface RenderOptions {
  format: ReportFormat;
  paper: Paper;
  unit: ThroughputUnit;
  generatedAt?: Date;
  appVersion?: string;
  /** This CPU's stored cipher ceilings: the report's encryption forecasts (none: measured pairs only). */
  ceilings?: CipherCeilings | null;
  /** The assessment the runs tell (its story first). */
  assessment?: Assessment;
  /** This machine's write volume, a line a disk (report-model.ts ReportOptions.writeVolume). */
  writeVolume?: string[];
  /** Candidate drives forecast beside the disk in use today: the Candidates section. */
  forecast?: Forecast | null;
  /** Each candidate's forecast beside the measured new disk: the Candidates section's first table. */
  judged?: JudgedCandidate[] | null;
}

export interface RenderedReport {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

export interface ReportTools {
  html: ReportHtml;
  /** Needed for PDF only. */
  printer: ReportPrinter | null;
}

/** Runs → the report file's bytes. */
export async function renderReport(
  records: RunRecord[],
  options: RenderOptions,
  { html: renderHtml, printer }: ReportTools,
): Promise<RenderedReport> {
  const doc = buildReport(records, {
    generatedAt: options.generatedAt ?? new Date(),
    paper: options.paper,
    unit: options.unit,
    appVersion: options.appVersion,
    ceilings: options.ceilings ?? null,
    ...(options.assessment ? { assessment: options.assessment } : {}),
    ...(options.writeVolume ? { writeVolume: options.writeVolume } : {}),
    forecast: options.forecast ?? null,
    judged: options.judged ?? null,
  });
  const base = `diskdelta-report-${records.map((r, i) => (r.id ? String(r.id) : `r${i + 1}`)).join('-')}`;
  return printed(await renderHtml(doc), base, options.format, printer);
}

/** A fleet compare → the fleet report file's bytes, through the same HTML and printer. */
export async function renderFleetReport(
  fleet: FleetComparison,
  options: Omit<RenderOptions, 'ceilings' | 'assessment' | 'forecast'>,
  { html: renderHtml, printer }: ReportTools,
): Promise<RenderedReport> {
  const doc = buildFleetReport(fleet, {
    generatedAt: options.generatedAt ?? new Date(),
    paper: options.paper,
    unit: options.unit,
    appVersion: options.appVersion,
  });
  return printed(await renderHtml(doc), `diskdelta-fleet-${fleet.rows.length}-hosts`, options.format, printer);
}

async function printed(html: string, base: string, format: ReportFormat, printer: ReportPrinter | null): Promise<RenderedReport> {
  if (format === 'html') return { fileName: `${base}.html`, mimeType: 'text/html', bytes: new TextEncoder().encode(html) };
  if (!printer) throw new ReportPrintError('no PDF printer in this build: save the report as HTML instead');
  const bytes = await printer.print(html);
  // A printer that "succeeds" with something else must not become a .pdf file on disk.
  if (!isPdf(bytes)) throw new ReportPrintError(`${printer.name} returned ${bytes.length} bytes that are not a PDF`);
  return { fileName: `${base}.pdf`, mimeType: 'application/pdf', bytes };
}
