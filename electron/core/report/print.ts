// What every report printer shares: the one way a report becomes a document (renderReport),
// and the print options both Chromiums are given. Page size, margins and page numbers live in
// the HTML's own @page rules (renderer/src/report/report-css.ts), so a printer only has to
// honour them: that is all that differs between the Electron app, the CLI and browser mode.
import type { RunRecord } from '../model/results.ts';
import type { ThroughputUnit } from '../analysis/units.ts';
import { renderReportHtml } from '../../../renderer/src/report/report-html.ts';
import { buildReport } from './report-model.ts';
import type { Paper } from './paper.ts';

export const PRINT_OPTIONS = { preferCSSPageSize: true, printBackground: true, displayHeaderFooter: false } as const;

export type ReportFormat = 'pdf' | 'html';

export interface ReportPrinter {
  name: string;
  /** Start what printing needs (a browser) now, so it starts while the report is being made. */
  prepare?(): void;
  /** Stop whatever prepare() started, if print() did not run; safe to call twice. */
  close?(): Promise<void>;
  /** The HTML carries its paper size (@page), so a printer needs nothing else. */
  print(html: string): Promise<Uint8Array>;
}

/** A printer that could not do its work; the message says what to install or fix. */
export class ReportPrintError extends Error {
  override name = 'ReportPrintError';
}

export interface RenderOptions {
  format: ReportFormat;
  paper: Paper;
  unit: ThroughputUnit;
  generatedAt?: Date;
  appVersion?: string;
}

export interface RenderedReport {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** Runs → the report file's bytes. The printer is needed for PDF only. */
export async function renderReport(records: RunRecord[], options: RenderOptions, printer: ReportPrinter | null): Promise<RenderedReport> {
  const doc = buildReport(records, { generatedAt: options.generatedAt ?? new Date(), paper: options.paper, unit: options.unit, appVersion: options.appVersion });
  const html = renderReportHtml(doc);
  const base = `diskdelta-report-${records.map((r, i) => (r.id ? String(r.id) : `r${i + 1}`)).join('-')}`;
  if (options.format === 'html') return { fileName: `${base}.html`, mimeType: 'text/html', bytes: new TextEncoder().encode(html) };
  if (!printer) throw new ReportPrintError('no PDF printer in this build: save the report as HTML instead');
  const bytes = await printer.print(html);
  // A printer that "succeeds" with something else must not become a .pdf file on disk.
  if (!isPdf(bytes)) throw new ReportPrintError(`${printer.name} returned ${bytes.length} bytes that are not a PDF`);
  return { fileName: `${base}.pdf`, mimeType: 'application/pdf', bytes };
}

export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length > 8 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';
}
