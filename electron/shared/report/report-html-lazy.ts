// The report's HTML renderer for the Node front ends (CLI, browser-mode server, Electron main),
// which hand it to core's renderReport: the report view and react-dom/server load on the first
// report, not when the program starts.
import type { ReportHtml } from './printer.ts';

export const renderReportHtmlLazily: ReportHtml = async (doc) => (await import('./report-html.ts')).renderReportHtml(doc);
