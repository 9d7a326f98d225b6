// Cell text whose names and figures never break over lines (model/whole-tokens.ts): each whole
// token in a no-wrap span, styled inline so the app and the report (its own CSS, rendered by
// Node too) draw it alike. createElement, not JSX: report-view.ts's reason.
import { createElement as h, Fragment, type ReactNode } from 'react';
import { wholeTokens } from '../model/whole-tokens.ts';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export function wholeText(text: string): ReactNode {
  const pieces = wholeTokens(text);
  if (pieces.every((p) => !p.whole)) return text;
  return h(
    Fragment,
    null,
    ...pieces.map((p, i) =>
      p.whole
        ? h(Fragment, { key: i }, h('span', { style: NO_WRAP }, p.text), p.breakAfter ? h('wbr') : null)
        : h(Fragment, { key: i }, p.text),
    ),
  );
}

/**
 * A path, or a command holding paths, that breaks only at a space or after a slash when its
 * column is narrow ("/tmp/…/home/" over "Projects"), never inside a name: a folder's or a
 * subcommand's hyphen ("trim-audit", "dd-assess-hdd-…") was a break point like any other.
 */
export function pathText(text: string): ReactNode {
  const words = text.split(/( +)/);
  return h(
    'code',
    { className: 'path' },
    ...words.map((word, w) => {
      if (/^ +$/.test(word)) return h(Fragment, { key: w }, word);
      const parts = word.split(/(?<=\/)/);
      return h(
        Fragment,
        { key: w },
        ...parts.map((part, i) => h(Fragment, { key: i }, h('span', { style: NO_WRAP }, part), i < parts.length - 1 ? h('wbr') : null)),
      );
    }),
  );
}

/**
 * Rendered HTML with wholeText's no-wrap spans (and a path's break points) taken away: the words
 * as a reader reads them, for tests that read a page's markup.
 */
export const wholeSpansAsText = (html: string): string =>
  html.replace(/<span style="white-space:nowrap">([^<]*)<\/span>/g, '$1').replace(/<wbr\/>/g, '');
