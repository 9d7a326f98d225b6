// Text for a table cell in pieces a line may not break inside. A browser breaks a line after
// any hyphen ("aes-xts-plain64", "dm-crypt", "AES-256" went over two or four lines at 390 px)
// and at any space ("41.27 MB/s" put its unit under its number), and no CSS rule stops the
// first: the whole tokens go in a no-wrap box (the caller's), the rest wraps as prose does.
// Browser-safe and pure: the renderer and the report view (also rendered by Node) both use it.

/**
 * A figure and its unit ("41.27 MB/s", "1,051 IOPS", "256 bit", "±16 %", "×1.73"), or a word with
 * a hyphen in it. Exported for the page-fit spec, which checks in the browser that none breaks.
 */
export const WHOLE =
  /[±×+−-]?\d[\d.,]*\s(?:[kKMGTP]i?B(?:\/s)?|B|IOPS|seeks\/s|ops\/s|%|s|ms|µs|ns|bit|days?|GT\/s|Gb\/s|Mb\/s)(?![\p{L}\d])|[^\s]*[\p{L}\d][-‐][^\s]*[\p{L}\d][^\s]*/gu;

export interface TextPiece {
  text: string;
  /** True: drawn on one line (a no-wrap box); false: prose, which may wrap at its spaces. */
  whole: boolean;
  /** A line may break after this piece though no space follows: a slash inside a path. */
  breakAfter?: boolean;
}

/** `text` cut into prose and whole tokens, in order; joined again they are `text` exactly. */
export function wholeTokens(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(WHOLE)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index), whole: false });
    // A path ("/tmp/a-b/home") breaks after its slashes, never inside a folder's name: kept
    // whole, a long one widened its column (the Library's labels pushed the table past 1,280 px).
    const parts = /^\d/.test(match[0]) ? [match[0]] : match[0].split(/(?<=\/)(?=.)/);
    parts.forEach((part, i) => pieces.push({ text: part, whole: true, ...(i < parts.length - 1 ? { breakAfter: true } : {}) }));
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), whole: false });
  return pieces;
}

/**
 * A label drawn by CSS (a cell's data-label, shown as ::before at a phone's width), whose words
 * no span can hold together: each hyphen inside a word becomes U+2011, the non-breaking hyphen
 * ("AES-256" split after its hyphen). For the eye only; the text a reader copies is elsewhere.
 */
export function unbrokenLabel(text: string): string {
  return text.replace(/(?<=[\p{L}\d])-(?=[\p{L}\d])/gu, '\u2011');
}
