// ESLint rule `diskdelta/terminal-writes`: text for a person reaches the terminal only through the
// escaping writer (electron/cli/terminal.ts), so that a path, a label or a child's message can
// never make the terminal obey escape sequences (OSC 52 clipboard writes, screen clears, CSI via
// C1). Flags `console.*` and any use of `process.stdout` / `process.stderr` other than asking
// about them (isTTY, columns) or listening on them (on, once, off).
// Options: { writers: ['electron/cli/terminal.ts', …] } (paths relative to `root`): the modules
// that may write.
import { relative } from 'node:path';

const ASKING = new Set([
  'isTTY',
  'columns',
  'rows',
  'fd',
  'hasColors',
  'getColorDepth',
  'on',
  'once',
  'off',
  'removeListener',
  'writableLength',
]);

export const terminalWritesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'terminal output goes through the escaping writer (electron/cli/terminal.ts)' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      console: 'console.{{name}} writes to the terminal unescaped: use writeOut/writeErr of {{writer}} (or pass a `say` that does)',
      stream:
        'process.{{stream}}{{how}} reaches the terminal unescaped: use writeOut/writeErr of {{writer}}, which escape control characters',
    },
  },
  create(context) {
    const { root, writers = [] } = context.options[0] ?? {};
    const rel = relative(root, context.filename).split('\\').join('/');
    if (writers.includes(rel)) return {};
    const writer = writers[0] ?? 'the writer module';
    const propertyName = (node) =>
      node.computed ? (node.property.type === 'Literal' ? String(node.property.value) : null) : node.property.name;
    return {
      MemberExpression(node) {
        if (node.object.type !== 'Identifier') return;
        if (node.object.name === 'console') {
          context.report({ node, messageId: 'console', data: { name: propertyName(node) ?? '[…]', writer } });
          return;
        }
        if (node.object.name !== 'process') return;
        const stream = propertyName(node);
        if (stream !== 'stdout' && stream !== 'stderr') return;
        const parent = node.parent;
        const asked = parent.type === 'MemberExpression' && parent.object === node ? propertyName(parent) : null;
        if (asked !== null && ASKING.has(asked)) return;
        context.report({ node, messageId: 'stream', data: { stream, how: asked ? `.${asked}` : ' (passed on as a stream)', writer } });
      },
    };
  },
};

/** Where the rule applies: everything that prints CLI, `serve` or launcher text. */
export const TERMINAL_WRITES = {
  files: ['electron/cli/**/*.ts', 'electron/server/**/*.ts', 'electron/node/**/*.ts', 'electron/shared/**/*.ts', 'bin/**/*.js'],
  ignores: ['**/*.test.ts', '**/*.fuzz.ts', '**/fixtures/**'],
  // run-cli-in-process.ts is the tests' capture of what the writer writes: it replaces the writes.
  writers: ['electron/cli/terminal.ts', 'electron/cli/run-cli-in-process.ts'],
};
