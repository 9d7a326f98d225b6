// A small iterative JSON scanner. JSON.parse is fast but its errors carry no line number
// and it accepts any depth; this scanner runs first, so a broken or hostile document is
// refused with the line of the problem, and afterwards it finds the line of a value that
// parsed but has the wrong type (for "file:line: expected a number" messages).
import { ImportError, MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_JSON_VALUES } from './import-error.ts';

type PathPart = string | number;

interface Frame {
  kind: 'object' | 'array';
  key: PathPart | null; // key or index of the value being read in this container
  index: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const SPACE = /[ \t\n\r]*/y;
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Walks `text` from `start` over exactly one JSON value. Calls `onValue(path, offset)` at the
 * start of every value; a `true` return stops the walk. Returns the offset after the value.
 * Throws ImportError (file, line) on a syntax error or nesting deeper than MAX_JSON_DEPTH.
 */
function walk(
  text: string,
  start: number,
  fileName: string,
  lineBase: number,
  onValue: ((path: PathPart[], offset: number) => boolean) | null,
): number {
  let i = start;
  const stack: Frame[] = [];
  const fail = (problem: string, at: number): never => {
    // Running out of text is the usual corruption (a cut download, a full disk): say so.
    const eof = at >= text.length && !problem.includes('truncated');
    const message = eof ? 'the file ends in the middle of the JSON document (truncated?)' : problem;
    throw new ImportError(fileName, lineAt(text, Math.min(at, text.length), lineBase), message);
  };
  const skipWs = () => {
    SPACE.lastIndex = i;
    SPACE.test(text);
    i = SPACE.lastIndex;
  };
  const path = (): PathPart[] => stack.map((f) => f.key as PathPart);

  const readString = (): string => {
    // i is at the opening quote. Runs of plain characters are skipped in one regex step
    // (a char-by-char loop made a 45 MB export take seconds longer).
    const begin = i;
    i++;
    let out = '';
    for (;;) {
      PLAIN.lastIndex = i;
      PLAIN.exec(text);
      out += text.slice(i, PLAIN.lastIndex);
      i = PLAIN.lastIndex;
      if (i >= text.length) fail(`the file ends inside a string that starts on line ${lineAt(text, begin, lineBase)} (truncated?)`, i);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return out;
      }
      if (c < 0x20) fail('control character inside a string', i);
      // c is a backslash
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in a string', i);
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else if (e !== undefined && ESCAPES[e] !== undefined) {
        out += ESCAPES[e];
        i += 2;
      } else {
        fail('bad escape in a string', i);
      }
    }
  };

  const readScalar = () => {
    const c = text[i];
    if (c === '"') {
      readString();
      return;
    }
    SCALAR.lastIndex = i;
    if (!SCALAR.test(text))
      fail(c === undefined ? 'the document ends too early (truncated?)' : `unexpected character ${JSON.stringify(c)}`, i);
    i = SCALAR.lastIndex;
  };

  let values = 0;
  let containers = 0;
  // One loop iteration reads one value (opening containers pushes a frame).
  for (;;) {
    skipWs();
    if (onValue && onValue(path(), i)) return i;
    // Counted so that JSON.parse never builds more than a small multiple of the file.
    if (++values > MAX_JSON_VALUES)
      fail(`more than ${MAX_JSON_VALUES.toLocaleString('en')} values: no benchmark result file holds that many`, i);
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= MAX_JSON_DEPTH) fail(`nested deeper than ${MAX_JSON_DEPTH} levels`, i);
      if (++containers > MAX_JSON_CONTAINERS)
        fail(`more than ${MAX_JSON_CONTAINERS.toLocaleString('en')} objects and arrays: no benchmark result file holds that many`, i);
      i++;
      skipWs();
      const kind = c === '{' ? 'object' : 'array';
      const close = c === '{' ? '}' : ']';
      if (text[i] === close) {
        i++;
      } else {
        const frame: Frame = { kind, key: null, index: 0 };
        if (kind === 'object') {
          if (text[i] !== '"') fail('expected a quoted key', i);
          frame.key = readString();
          skipWs();
          if (text[i] !== ':') fail('expected ":" after a key', i);
          i++;
        } else {
          frame.key = 0;
        }
        stack.push(frame);
        continue;
      }
    } else {
      readScalar();
    }
    // A value is complete: move to the next sibling or close containers.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) return i;
      skipWs();
      const d = text[i];
      if (d === ',') {
        i++;
        skipWs();
        top.index++;
        if (top.kind === 'object') {
          if (text[i] !== '"') fail('expected a quoted key', i);
          top.key = readString();
          skipWs();
          if (text[i] !== ':') fail('expected ":" after a key', i);
          i++;
        } else {
          top.key = top.index;
        }
        break;
      }
      if ((d === '}' && top.kind === 'object') || (d === ']' && top.kind === 'array')) {
        i++;
        stack.pop();
        continue;
      }
      fail(d === undefined ? 'the document ends too early (truncated?)' : `unexpected ${JSON.stringify(d)}`, i);
    }
  }
}

/** 1-based line of `offset` in `text`, plus the lines that came before `text` in the file. */
export function lineAt(text: string, offset: number, lineBase = 0): number {
  let line = 1;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) line++;
  return line + lineBase;
}

/**
 * Checks that `text` is exactly one JSON value (with only whitespace around it), then
 * parses it. `lineBase` is the number of file lines before `text` (for fio's preamble).
 */
export function parseJsonChecked(text: string, fileName: string, lineBase = 0): unknown {
  let start = 0;
  while (start < text.length && WS.has(text[start] as string)) start++;
  const end = walk(text, start, fileName, lineBase, null);
  let rest = end;
  while (rest < text.length && WS.has(text[rest] as string)) rest++;
  if (rest < text.length) {
    throw new ImportError(fileName, lineAt(text, rest, lineBase), 'unexpected text after the JSON document');
  }
  return JSON.parse(text) as unknown;
}

/**
 * Checks one JSON value starting at `start` (fio prints text before and after its document)
 * and returns the offset just after it.
 */
export function scanJsonValue(text: string, start: number, fileName: string, lineBase = 0): number {
  return walk(text, start, fileName, lineBase, null);
}

/**
 * Where the value at `path` starts, as a 1-based file line, or null if the path is absent.
 * `from` is where the document starts in `text`. Only called on an error path, on a document
 * that was already checked.
 */
export function lineOfPath(text: string, path: PathPart[], from = 0): number | null {
  let found: number | null = null;
  const target = path.map(String).join('\u0000');
  try {
    let start = from;
    while (start < text.length && WS.has(text[start] as string)) start++;
    walk(text, start, '', 0, (p, offset) => {
      if (p.length === path.length && p.map(String).join('\u0000') === target) {
        found = offset;
        return true;
      }
      return false;
    });
  } catch {
    return null;
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set inside the callback above, which narrowing does not follow
  return found === null ? null : lineAt(text, found);
}
