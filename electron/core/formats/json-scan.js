// A small iterative JSON scanner. JSON.parse is fast but its errors carry no line number
// and it accepts any depth; this scanner runs first, so a broken or hostile document is
// refused with the line of the problem, and afterwards it finds the line of a value that
// parsed but has the wrong type (for "file:line: expected a number" messages).
import { ImportError, MAX_JSON_DEPTH } from "./import-error.js";
const WS = new Set([' ', '\t', '\n', '\r']);
/**
 * Walks `text` from `start` over exactly one JSON value. Calls `onValue(path, offset)` at the
 * start of every value; a `true` return stops the walk. Returns the offset after the value.
 * Throws ImportError (file, line) on a syntax error or nesting deeper than MAX_JSON_DEPTH.
 */
function walk(text, start, fileName, lineBase, onValue) {
    let i = start;
    const stack = [];
    const fail = (problem, at) => {
        throw new ImportError(fileName, lineAt(text, Math.min(at, text.length), lineBase), problem);
    };
    const skipWs = () => {
        while (i < text.length && WS.has(text[i]))
            i++;
    };
    const path = () => stack.map((f) => f.key);
    const readString = () => {
        // i is at the opening quote
        const begin = i;
        i++;
        let out = '';
        for (;;) {
            if (i >= text.length)
                fail('unterminated string', begin);
            const c = text.charCodeAt(i);
            if (c === 0x22) {
                i++;
                return out;
            }
            if (c < 0x20)
                fail('control character inside a string', i);
            if (c === 0x5c) {
                const e = text[i + 1];
                if (e === 'u') {
                    if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
                        fail('bad \\u escape in a string', i);
                    out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
                    i += 6;
                }
                else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
                    out += e;
                    i += 2;
                }
                else {
                    fail('bad escape in a string', i);
                }
            }
            else {
                out += text[i];
                i++;
            }
        }
    };
    const readScalar = () => {
        const c = text[i];
        if (c === '"') {
            readString();
            return;
        }
        const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
        if (!m)
            fail(c === undefined ? 'the document ends too early' : `unexpected character ${JSON.stringify(c)}`, i);
        i += m[0].length;
    };
    // One loop iteration reads one value (opening containers pushes a frame).
    for (;;) {
        skipWs();
        if (onValue && onValue(path(), i))
            return i;
        const c = text[i];
        if (c === '{' || c === '[') {
            if (stack.length >= MAX_JSON_DEPTH)
                fail(`nested deeper than ${MAX_JSON_DEPTH} levels`, i);
            i++;
            skipWs();
            const kind = c === '{' ? 'object' : 'array';
            const close = c === '{' ? '}' : ']';
            if (text[i] === close) {
                i++;
            }
            else {
                const frame = { kind, key: null, index: 0 };
                if (kind === 'object') {
                    if (text[i] !== '"')
                        fail('expected a quoted key', i);
                    frame.key = readString();
                    skipWs();
                    if (text[i] !== ':')
                        fail('expected ":" after a key', i);
                    i++;
                }
                else {
                    frame.key = 0;
                }
                stack.push(frame);
                continue;
            }
        }
        else {
            readScalar();
        }
        // A value is complete: move to the next sibling or close containers.
        for (;;) {
            const top = stack[stack.length - 1];
            if (!top)
                return i;
            skipWs();
            const d = text[i];
            if (d === ',') {
                i++;
                skipWs();
                top.index++;
                if (top.kind === 'object') {
                    if (text[i] !== '"')
                        fail('expected a quoted key', i);
                    top.key = readString();
                    skipWs();
                    if (text[i] !== ':')
                        fail('expected ":" after a key', i);
                    i++;
                }
                else {
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
export function lineAt(text, offset, lineBase = 0) {
    let line = 1;
    for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1))
        line++;
    return line + lineBase;
}
/**
 * Checks that `text` is exactly one JSON value (with only whitespace around it), then
 * parses it. `lineBase` is the number of file lines before `text` (for fio's preamble).
 */
export function parseJsonChecked(text, fileName, lineBase = 0) {
    let start = 0;
    while (start < text.length && WS.has(text[start]))
        start++;
    const end = walk(text, start, fileName, lineBase, null);
    let rest = end;
    while (rest < text.length && WS.has(text[rest]))
        rest++;
    if (rest < text.length) {
        throw new ImportError(fileName, lineAt(text, rest, lineBase), 'unexpected text after the JSON document');
    }
    return JSON.parse(text);
}
/**
 * Checks one JSON value starting at `start` (fio prints text before and after its document)
 * and returns the offset just after it.
 */
export function scanJsonValue(text, start, fileName, lineBase = 0) {
    return walk(text, start, fileName, lineBase, null);
}
/**
 * Where the value at `path` starts, as a 1-based file line, or null if the path is absent.
 * `from` is where the document starts in `text`. Only called on an error path, on a document
 * that was already checked.
 */
export function lineOfPath(text, path, from = 0) {
    let found = null;
    const target = path.map(String).join('\u0000');
    try {
        let start = from;
        while (start < text.length && WS.has(text[start]))
            start++;
        walk(text, start, '', 0, (p, offset) => {
            if (p.length === path.length && p.map(String).join('\u0000') === target) {
                found = offset;
                return true;
            }
            return false;
        });
    }
    catch {
        return null;
    }
    return found === null ? null : lineAt(text, found);
}
