// ESLint rule `diskdelta/layers`: the import boundaries of design.md, read from one table.
// Options: { root, layers: [{ name, dirs, mayImport, mayImportPaths, typeOnlyPaths, forbidPackages, confinedTo }] }: `dirs` are
// folder (or file) prefixes relative to root, the longest match decides a file's layer. A relative
// import from layer A of a file in layer B is allowed when A === B, B is in A.mayImport, or the
// file starts with one of A.mayImportPaths; one of A.typeOnlyPaths only by `import type` (or
// specifiers that are all `type`). Package names (and node:*) are checked against
// A.forbidPackages ([{ name, why }], a name ending in ':' is a prefix). A.confinedTo (a folder
// prefix): no relative import may leave it.
import { dirname, relative, resolve } from 'node:path';

// Where a file runs is said by its folder (VS Code's common/node/browser shape):
//   electron/shared/  runs in the page AND in Node: imports nothing outside itself, no node:*, no
//                     Electron. Checked by the web type check too (tsconfig.web.json, no Node types).
//   electron/node/    Node only: the engine (measuring, the machine, the library, importers, printing)
//   renderer/         the page only: shared and nothing else (the contract for types only)
// (the report's view and the chart drawing run in both: the CLI prints the same SVG the page draws)
//   electron/cli, server, main: both. electron/preload: the contract's names and bridge only.
// Inside shared/ and node/ the topic layers keep their order, bottom first: a module imports its
// own layer and those below it, never one above.
//   shared: model     the result model (zod schemas, the types inferred from them), catalog, failure codes, wording
//           analysis  units, statistics, comparison, verdicts: decided once, as data
//           catalog   tables built on the analysis (the presets and their trust rules)
//           charts    the chart registry and chart models
//           report    what a report contains (its model) and its view (React, rendered to HTML in Node
//                     for the CLI, the server and the main process, and in the page)
//           contract  the one typed API (IPC + WebSocket)
//   node:   files     writing a file a person chose (no data model of its own)
//           system    reads the machine (sysfs, mountinfo, dm)
//           formats   importers and exporters of result files
//           store     the SQLite library
//           bench     measurement kinds, the worker client, the orchestrator
//           crypto    dm-crypt: cipher ceilings, throwaway mappings, the encryption run
//           report    printing a report (Chromium)
//           api       the procedures of the contract over all of the above
export const SHARED_LAYERS = ['model', 'analysis', 'catalog', 'charts', 'report', 'contract'];
export const NODE_LAYERS = ['files', 'system', 'formats', 'store', 'bench', 'crypto', 'report', 'api'];
const noElectron = {
  name: 'electron',
  why: 'shared/ and node/, the CLI and the server run without Electron (design.md); Electron glue lives in electron/main and electron/preload',
};
const noNode = { name: 'node:', why: 'shared/ runs in the page too: Node-only code goes in electron/node/' };
const sharedName = (name) => `shared/${name}`;
const nodeName = (name) => `node/${name}`;
const SHARED = SHARED_LAYERS.map((name, rank) => ({
  name: sharedName(name),
  dirs: [`electron/shared/${name}`],
  mayImport: SHARED_LAYERS.slice(0, rank).map(sharedName),
  forbidPackages: [noNode, noElectron, { name: 'ws', why: 'shared/ runs in the page too' }],
  confinedTo: 'electron/shared/',
}));
const ALL_SHARED = SHARED_LAYERS.map(sharedName);
const NODE = NODE_LAYERS.map((name, rank) => ({
  name: nodeName(name),
  dirs: [`electron/node/${name}`],
  mayImport: [...ALL_SHARED, ...NODE_LAYERS.slice(0, rank).map(nodeName)],
  forbidPackages: [noElectron],
}));
const ALL_NODE = NODE_LAYERS.map(nodeName);
export const LAYERS_OUTSIDE_CORE = [
  {
    name: 'cli',
    dirs: ['electron/cli'],
    mayImport: [...ALL_SHARED, ...ALL_NODE, 'server'],
    forbidPackages: [noElectron],
  },
  {
    name: 'server',
    dirs: ['electron/server'],
    mayImport: [...ALL_SHARED, ...ALL_NODE],
    forbidPackages: [noElectron],
  },
  // The Electron glue: the one place that imports Electron. The main process hosts the backend
  // (node/) and prints the report view; the sandboxed preload only forwards the contract's verbs.
  { name: 'main', dirs: ['electron/main'], mayImport: [...ALL_SHARED, ...ALL_NODE] },
  {
    name: 'preload',
    dirs: ['electron/preload'],
    mayImportPaths: ['electron/shared/contract/contract-names.ts', 'electron/shared/contract/bridge.ts'],
    forbidPackages: [{ name: 'node:', why: 'a sandboxed preload gets no Node modules: only electron' }],
  },
  {
    name: 'renderer',
    dirs: ['renderer'],
    // The renderer is web code: shared/ only, never node/.
    mayImport: ALL_SHARED,
    // Types only: a value import would bundle the contract's zod schemas into the page; shared
    // constants live in shared/model/.
    typeOnlyPaths: ['electron/shared/contract/'],
    forbidPackages: [
      { name: 'node:', why: 'the renderer runs sandboxed without Node; ask the backend through the API contract' },
      noElectron,
      { name: 'ws', why: 'use renderer/src/api' },
    ],
  },
];
export const LAYERS = [...SHARED, ...NODE, ...LAYERS_OUTSIDE_CORE];

/** @param {string} file @param {{name: string, dirs: string[]}[]} layers */
function layerOf(file, layers, root) {
  const rel = relative(root, file).split('\\').join('/');
  let best;
  for (const layer of layers)
    for (const dir of layer.dirs)
      if ((rel === dir || rel.startsWith(dir.endsWith('/') ? dir : `${dir}/`)) && (!best || dir.length > best.dir.length))
        best = { layer, dir };
  return best?.layer;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'imports follow the layering of design.md: no upward imports, no Node in shared/ or the renderer, no Electron outside main and preload',
    },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      upward: '{{from}} may not import {{to}} ({{target}}): {{from}} may import only {{allowed}}. Move the shared code down a layer.',
      forbidden: '{{from}} may not import the package "{{target}}"{{why}}',
      typeOnly: '{{from}} may import only types from {{target}} (import type …): move a shared value to electron/shared/model/',
      outside: '{{from}} may not import {{target}}: it runs in the page and in Node, and imports nothing outside {{inside}}',
    },
  },
  create(context) {
    const { layers, root } = context.options[0];
    const here = layerOf(context.filename, layers, root);
    if (!here) return {};
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (!source.startsWith('.')) {
        for (const rule of here.forbidPackages ?? [])
          if (source === rule.name || source.startsWith(`${rule.name}/`) || (rule.name.endsWith(':') && source.startsWith(rule.name)))
            context.report({
              node,
              messageId: 'forbidden',
              data: { from: here.name, target: source, why: rule.why ? `: ${rule.why}` : '' },
            });
        return;
      }
      const target = resolve(dirname(context.filename), source);
      const there = layerOf(target, layers, root);
      const rel = relative(root, target).split('\\').join('/');
      if (here.confinedTo && !rel.startsWith(here.confinedTo)) {
        context.report({ node, messageId: 'outside', data: { from: here.name, target: source, inside: here.confinedTo } });
        return;
      }
      // Before the layers: a layer the importer may use can still be one it takes types from only.
      if ((here.typeOnlyPaths ?? []).some((prefix) => rel.startsWith(prefix))) {
        if (!typeOnly(node)) context.report({ node, messageId: 'typeOnly', data: { from: here.name, target: source } });
        return;
      }
      if (!there || there === here || (here.mayImport ?? []).includes(there.name)) return;
      if ((here.mayImportPaths ?? []).some((prefix) => rel.startsWith(prefix))) return;
      context.report({
        node,
        messageId: 'upward',
        data: {
          from: here.name,
          to: there.name,
          target: source,
          allowed: [...(here.mayImport ?? []), ...(here.mayImportPaths ?? [])].join(', ') || 'nothing outside itself',
        },
      });
    };
    // `node` is the source literal; its parent the declaration (or an import() expression).
    const typeOnly = (node) => {
      const decl = node.parent;
      if (decl?.type !== 'ImportDeclaration' && decl?.type !== 'ExportNamedDeclaration') return false;
      const kind = decl.importKind ?? decl.exportKind;
      if (kind === 'type') return true;
      const specifiers = decl.specifiers ?? [];
      return specifiers.length > 0 && specifiers.every((s) => (s.importKind ?? s.exportKind) === 'type');
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
