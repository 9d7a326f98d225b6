// A figure stays on one line with its unit. Page 1 of a measured assessment wrapped "11,966 IOPS
// ±1,014" at a line's end and began the next line with "% (noisy)": a unit read as belonging to
// nothing. The verdicts' sentences are plain text (analysis/verdicts.ts), rendered by page 1 and
// the app's verdict panel alike; this wraps each number-and-unit in a span styled
// `white-space: nowrap` (first-page.ts's CSS, the app's styles.css), so the text, and what pdftotext reads, is unchanged.
import { createElement as h, type ReactNode } from 'react';

/** A number with its unit after a space: "1,059 MB/s", "±307 %", "(+73 %)"'s "+73 %", "4.1 MB", "0.467 s". */
const FIGURE = /[±×+−-]?\d[\d,]*(?:\.\d+)? (?:%|[kKMGT]?i?B\/s|[kKMGT]?i?B|IOPS|seeks\/s|[mµn]?s)(?![\p{L}\d/])/gu;

/** `text` with each figure in a `span.figure`, the rest as it is. */
export function keepFiguresTogether(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(FIGURE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(h('span', { className: 'figure', key: m.index }, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Rendered HTML with each figure's span taken away: the words as a reader reads them (tests read page 1 with it). */
export const figureSpansAsText = (html: string): string => html.replace(/<span class="figure">([^<]*)<\/span>/g, '$1');
