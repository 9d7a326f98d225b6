// The report as one self-contained HTML file: the report view rendered to static markup, its
// styles inlined, charts as inline SVG, no script and no reference to anything outside the
// file. A Content-Security-Policy of default-src 'none' makes that a rule the browser
// enforces: opened anywhere, offline, it can load nothing. Both PDF printers (Chromium through
// playwright-core, Electron's printToPDF) print exactly this text.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReportDocument } from './report-model.ts';
import { pageCss, REPORT_CSS } from './report-css.ts';
import { ReportView } from './report-view.ts';
import { FleetReportView } from './fleet-report-view.ts';
import type { FleetReportDocument } from './fleet-report-model.ts';

export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function renderReportHtml(doc: ReportDocument | FleetReportDocument): string {
  const body = renderToStaticMarkup('kind' in doc ? createElement(FleetReportView, { doc }) : createElement(ReportView, { doc }));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="DiskDelta${doc.appVersion ? ` ${escapeHtml(doc.appVersion)}` : ''}">
<title>${escapeHtml(doc.title)}</title>
<style>
${pageCss(doc.paper)}
html, body { margin: 0; background: #fff; }
body { padding: 6mm; }
@media print { body { padding: 0; } }
${REPORT_CSS}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
