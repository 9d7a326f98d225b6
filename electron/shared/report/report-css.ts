// The report's styles: always the light theme, sized for paper. A TypeScript string rather
// than a .css file because Node (CLI, browser-mode server), the Electron bundle and Vite all
// import it as it is, and the self-contained HTML inlines it. Everything is scoped under
// .report except @page, so the app's report route can use it beside the app's own styles.
// Page numbers are @page margin boxes (Chromium ≥ 131): they are part of the document, so
// the same numbers appear whichever Chromium prints it, or when a person prints the HTML.
import type { Paper } from './paper.ts';

/** Light-theme series colours (the report is always light), in run order. */
// Each ≥ 4.5:1 against the white run numbers of the report's swatches.
export const REPORT_COLORS = ['#2563eb', '#b45309', '#047857', '#7c3aed', '#dc2626', '#0e7490'];

/**
 * The colours the app's chart drawing (charts/chart-svg.ts) names as CSS variables, for paper:
 * the same SVG is light in the report inside the dark app too, since they are set on .report.
 */
const CHART_VARIABLES = [
  ...REPORT_COLORS.map((c, i) => `--series-${i}: ${c};`),
  '--text: #111827;',
  '--muted: #4b5563;',
  '--grid: #e5e7eb;',
].join(' ');

const PAGE_SIZE: Record<Paper, string> = { a4: 'A4', letter: 'letter' };

export function pageCss(paper: Paper): string {
  return `@page {
  size: ${PAGE_SIZE[paper]} portrait;
  margin: 14mm 13mm 16mm 13mm;
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8pt "DejaVu Sans", Arial, sans-serif; color: #6b7280; }
  @bottom-left { content: "DiskDelta report"; font: 8pt "DejaVu Sans", Arial, sans-serif; color: #6b7280; }
}`;
}

export const REPORT_CSS = `
.report { ${CHART_VARIABLES}
  /* A name is printed as the user or a file wrote it (a run, a machine, a host, a device): one of
     200 characters without a space ran off the page's right margin (issue 38, item 16). Any word
     breaks where it must, in every block and table cell; words that fit are never broken. */
  overflow-wrap: anywhere;
  color-scheme: light; background: #fff; color: #111827; font: 9.5pt/1.4 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; max-width: 190mm; margin: 0 auto; }
.report h1 { font-size: 17pt; margin: 0 0 2mm; line-height: 1.2; }
.report h2 { font-size: 12.5pt; margin: 6mm 0 2mm; padding-bottom: 1mm; border-bottom: 1px solid #d1d5db; break-after: avoid; }
.report h3 { font-size: 10pt; margin: 3mm 0 1mm; break-after: avoid; }
.report p { margin: 0 0 2mm; }
.report .run-line { font-size: 10.5pt; }
.report .muted { color: #6b7280; }
.report .block { display: block; }
.report .code, .report code { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; color: #4b5563; }
.report .swatch { display: inline-block; min-width: 6mm; padding: 0 1mm; border-radius: 2px; color: #fff; font-size: 8pt; font-weight: bold; text-align: center; }
.report .badge { display: inline-block; padding: 0 1.5mm; border: 1px solid #9ca3af; border-radius: 2px; font-size: 7.5pt; font-weight: normal; text-transform: uppercase; letter-spacing: 0.03em; color: #374151; }
.report .badge.reference { border-color: #7c3aed; color: #6d28d9; }
.report .badge.imported { border-color: #d97706; color: #b45309; }
.report .section-summary p { font-size: 10pt; }
.report .run-cards { display: grid; grid-template-columns: 1fr 1fr; gap: 3mm; }
.report .run-card, .report .method-run { border: 1px solid #e5e7eb; border-radius: 2mm; padding: 2mm 3mm; break-inside: avoid; }
.report .run-card h3, .report .method-run h3 { margin-top: 0; }
.report dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.5mm 3mm; margin: 0; font-size: 8.5pt; }
.report dt { color: #6b7280; }
.report dd { margin: 0; }
.report .stack-title { margin: 1.5mm 0 0.5mm; font-size: 8pt; color: #6b7280; }
.report ol.stack { margin: 0; padding-left: 5mm; font-family: "DejaVu Sans Mono", monospace; font-size: 7pt; }
.report .charts { display: grid; grid-template-columns: 1fr; gap: 2mm; }
.report figure.chart { margin: 0; break-inside: avoid; }
.report figure.chart figcaption { font-size: 8.5pt; font-weight: bold; margin-bottom: 1mm; }
.report figure.chart .chart-drawing { margin-top: 1mm; }
/* The drawing is the app's, drawn 640 px wide (report-chart.ts); paper scales it to the text width.
   Its text is sized by that width: in a 390 px window it shrank to ~5 px, and at 200 % zoom it grew
   less than the text around it. On screen the drawing keeps at least its natural 640 px and scrolls
   sideways where the window is narrower (a chart may: WCAG 1.4.10 excepts two-dimensional content). */
.report figure.chart .chart-drawing { overflow-x: auto; }
.report figure.chart .chart-drawing > svg { display: block; width: 100%; height: auto; min-width: 640px;
  font-family: "DejaVu Sans", Arial, sans-serif; overflow: visible; }
@media print { .report figure.chart .chart-drawing > svg { min-width: 0; } .report figure.chart .chart-drawing { overflow: visible; } }
.report ol.chart-legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5mm 4mm; font-size: 8pt; }
.report ol.chart-legend li { min-width: 0; }
.report figure.chart .chart-note { font-size: 8pt; color: #4b5563; margin: 1mm 0 0; white-space: pre-line; }
.report figure.chart .chart-table-group ul.notes { font-size: 8pt; color: #4b5563; }
.report table.figures { width: 100%; border-collapse: collapse; font-size: 7.5pt; }
.report table.figures thead { display: table-header-group; }
.report table.figures th, .report table.figures td { border-bottom: 1px solid #e5e7eb; padding: 1mm 1.2mm; text-align: left; vertical-align: top; }
.report table.figures thead th { border-bottom: 1.5px solid #9ca3af; font-size: inherit; }
.report table.figures tr { break-inside: avoid; }
.report table.figures .value { font-weight: bold; }
.report .working-set-tables { display: flex; gap: 6mm; align-items: flex-start; margin-bottom: 4mm; break-inside: avoid; }
.report .working-set-tables table { border-collapse: collapse; font-size: 8pt; }
.report .working-set-tables caption { text-align: left; font-weight: bold; padding-bottom: 1mm; }
.report .working-set-tables th, .report .working-set-tables td { border-bottom: 1px solid #e5e7eb; padding: 0.8mm 2mm; text-align: left; }
.report .working-set-tables td.num { text-align: right; font-variant-numeric: tabular-nums; }
.report .delta.better.spread-yes strong, .report .delta.better.spread-unknown strong { color: #047857; }
.report .delta.worse.spread-yes strong, .report .delta.worse.spread-unknown strong { color: #b91c1c; }
.report table.chart-table { width: auto; min-width: 60%; margin-bottom: 1mm; }
.report table.chart-table caption { text-align: left; font-size: 8pt; font-weight: bold; padding-bottom: 0.5mm; }
.report table.chart-table tr.emphasis th, .report table.chart-table tr.emphasis td { font-weight: bold; }
.report ul.notes, .report ul.warnings, .report ul.tests { margin: 0 0 2mm; padding-left: 5mm; }
.report ul.warnings li, .report ul.notes li { break-inside: avoid; margin-bottom: 0.8mm; }
.report ul.tests, .report p.tests { font-size: 8pt; }
.report p.tests { margin-top: 1mm; }
.report .method-run { margin-bottom: 2mm; }
/* The report is a light page even inside the dark app: no table takes the app theme's colours (styles.css). */
.report table { background: transparent; color: inherit; border: 0; border-radius: 0; }
.report table th, .report table td { background: transparent; color: inherit; }
.report table.encryption { font-size: 8.5pt; margin-bottom: 2mm; }
.report table.encryption td.forecast { border: 1.5px dashed #6b7280; background: repeating-linear-gradient(135deg, #f3f4f6 0 2mm, #fff 2mm 4mm); }
.report table.encryption td.forecast em { font-style: italic; color: #4b5563; }
/* A phone's width (the app's Report page at 390 px): a table of a column per run is laid out a row
   per block, each figure under its run's name, where four columns squeezed "sequential" over five
   lines. The roles on the tables keep them tables to a screen reader. Paper is wider: untouched. */
@media screen and (max-width: 760px) {
  .report table.figures, .report table.figures tbody, .report table.figures tr, .report table.figures th, .report table.figures td { display: block; }
  .report table.figures thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .report table.figures tr { padding: 1mm 0; border-bottom: 1px solid #e5e7eb; }
  .report table.figures th, .report table.figures td { border: 0; }
  .report table.figures td[data-label]::before { content: attr(data-label); display: block; color: #6b7280; font-weight: normal; }
}
.report .flagged { color: #b45309; }
.report ul.warnings.flagged { font-size: 7.5pt; }
/* Candidates (candidates-view.ts, the app's table too): every forecast cell italic (estimated), its range and limit in small type below. */
.report .candidates-forecast { font-size: 8pt; }
/* The table whole, its heading and the machine's line kept with it (never orphaned at the foot of a page). */
.report table.candidates-table { break-inside: avoid; }
.report table.candidates-table { border-collapse: collapse; width: 100%; font-size: 8pt; margin-bottom: 2mm; }
.report table.candidates-table caption { text-align: left; color: #4b5563; padding-bottom: 1mm; }
.report table.candidates-table th, .report table.candidates-table td { border-bottom: 1px solid #e5e7eb; padding: 0.8mm 1.5mm; text-align: left; vertical-align: top; }
.report table.candidates-table td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.report table.candidates-table td.estimated .fc-main, .report table.candidates-table td.fc-sentence { font-style: italic; }
.report table.candidates-table td.fc-sentence { font-size: 7pt; }
.report table.candidates-table tr.fc-section th, .report table.candidates-table tr.fc-section td { font-weight: bold; color: #4b5563; padding-top: 2mm; }
.report table.candidates-table th[scope='row'] { overflow-wrap: normal; width: 26mm; }
.report table.candidates-table td.num { width: 30mm; }
.report .fc-detail { display: block; font-size: 7pt; color: #4b5563; }
.report .fc-tag { color: #b45309; font-weight: bold; }
.report ol.fc-reasons { padding-left: 5mm; margin: 1mm 0; }
.report ol.fc-reasons > li { margin-bottom: 1mm; }
.report ol.fc-reasons ul { margin: 0; padding-left: 4mm; }
.report .fc-origin, .report .fc-note, .report .fc-accuracy { color: #4b5563; margin: 0.5mm 0; }
.report .fc-replay { color: #4b5563; margin: 0.5mm 0; }
.report .fc-replay p { margin: 0.5mm 0; }
.report .fc-replay ul { margin: 0; padding-left: 4mm; }
/* The judged table (judged-model.ts): each candidate's forecast gain beside the new disk's measured one. */
.report .judged-forecast { font-size: 8pt; margin-bottom: 3mm; break-inside: avoid; }
.report table.judged-candidates { border-collapse: collapse; font-size: 8pt; }
.report table.judged-candidates caption { text-align: left; color: #4b5563; padding-bottom: 1mm; }
.report table.judged-candidates th, .report table.judged-candidates td { border-bottom: 1px solid #e5e7eb; padding: 0.8mm 1.5mm; text-align: left; }
.report table.judged-candidates td.num { text-align: right; font-variant-numeric: tabular-nums; }
.report table.judged-candidates td.estimated { font-style: italic; }
.report .judged-forecast .hint { color: #4b5563; margin: 0.5mm 0; }
.report table.candidates-table caption .fc-machine { display: block; color: #111827; }
.report table.candidates-table caption .fc-estimated { display: block; }
@media print { .report { max-width: none; } }
`;
