// Text from outside (labels, imported files, paths) on its way to a terminal or a message.
// A terminal obeys control characters: ESC starts sequences that clear the screen, set the
// window title or write the clipboard (OSC 52); a C1 byte such as U+009B is CSI on some
// terminals; bidi overrides reorder what is shown. Input refuses them (hasControlChars); every
// terminal output escapes them (terminalText), so old data or a path cannot act either.
// Browser-safe: the renderer may use it (no Node APIs).

// C0 controls, DEL, C1 controls, and the bidi embedding/override/isolate marks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');
const CONTROL_NOT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The first control character in `text` as "U+001B", or null: for "refused: …" messages.
 * `layout` lets tab, newline and carriage return pass (multi-line text from a file).
 */
export function controlCharIn(text: string, options: { layout?: boolean } = {}): string | null {
  const match = (options.layout ? CONTROL_NOT_LAYOUT : CONTROL).exec(text);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Output for a terminal: every control character shown as \uXXXX (which also keeps JSON
 * valid), except the newlines and tabs the output's own layout is made of.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL_BUT_LAYOUT, escape);
}

/** One field (a table cell, a label in a sentence): newlines and tabs escaped too. */
export function terminalField(text: string): string {
  return text.replace(CONTROL_ALL, escape);
}

/** A path as messages show it: whole up to 200 characters, else its two ends and its length. */
export function shortPath(path: string): string {
  if (path.length <= 200) return path;
  return `${path.slice(0, 80)}…${path.slice(-80)} (a path of ${path.length} characters)`;
}

/** "1 run", "3 runs": a count with its noun, singular or plural ("pass" → "passes"). */
// Made once: Chromium builds a formatter on every toLocaleString call. analysis/units.ts's
// formatCount is the same rule, in a layer above this one.
const GROUPED_COUNT = new Intl.NumberFormat('en-US');

/** "12,345": an integer grouped as formatCount does, for modules below analysis/ (schemas' messages). */
export function groupedInteger(n: number): string {
  return GROUPED_COUNT.format(Math.round(n));
}

export function counted(n: number, noun: string): string {
  return `${Number.isInteger(n) ? GROUPED_COUNT.format(n) : n} ${n === 1 ? noun : /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`}`;
}
