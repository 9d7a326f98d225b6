// What a report printer is, and what every printer is given: light (no report view, no React),
// so the CLI, the server and the Electron main can name a printer without loading the report.
// Page size, margins and page numbers live in the HTML's own @page rules
// (electron/shared/report/report-css.ts): a printer only has to honour them.
import type { ReportDocument } from './report-model.ts';
import type { FleetReportDocument } from './fleet-report-model.ts';

export const PRINT_OPTIONS = { preferCSSPageSize: true, printBackground: true, displayHeaderFooter: false } as const;

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

export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length > 8 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';
}

/**
 * The report view rendered to one self-contained HTML text. The view is the renderer's
 * (electron/shared/report/report-html.ts) and shared/ imports nothing outside itself, so each
 * front end hands it in (electron/shared/report/report-html-lazy.ts loads it on first use).
 */
export type ReportHtml = (doc: ReportDocument | FleetReportDocument) => string | Promise<string>;
