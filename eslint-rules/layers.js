// ESLint rule `diskdelta/layers`: the import boundaries of design.md, read from one table.
// Options: { root, layers: [{ name, dirs, mayImport, mayImportPaths, typeOnlyPaths, forbidPackages }] }: `dirs` are
// folder (or file) prefixes relative to root, the longest match decides a file's layer. A relative
// import from layer A of a file in layer B is allowed when A === B, B is in A.mayImport, or the
// file starts with one of A.mayImportPaths; one of A.typeOnlyPaths only by `import type` (or
// specifiers that are all `type`). Package names (and node:*) are checked against
// A.forbidPackages ([{ name, why }], a name ending in ':' is a prefix).
import { dirname, relative, resolve } from 'node:path';

// The layers of core/, bottom first: a module may import its own layer and those below it, never
// one above, and nothing outside core/.
//   model     the result model, catalog, failure codes, machine-fact types: pure data and schemas
//   files     writing a file a person chose (no data model of its own)
//   system    reads the machine (sysfs, mountinfo, dm)
//   analysis  units, comparison
//   formats   importers and exporters of result files
//   store     the SQLite library
//   bench     measurement kinds, the worker client, the orchestrator
//   crypto    dm-crypt: cipher ceilings (the worker's ciphers verb), throwaway mappings, the
//             encryption run (two bench runs: raw and through dm-crypt)
//   report    what a report contains (from the comparison and analyses), its printers
//   api       the contract and the procedures over all of the above
export const CORE_LAYERS = ['model', 'files', 'system', 'analysis', 'formats', 'store', 'bench', 'crypto', 'report', 'api'];
const noElectron = {
  name: 'electron',
  why: 'core, the CLI and the server run without Electron (design.md); Electron glue lives in electron/main and electron/preload',
};
const CORE = CORE_LAYERS.map((name, rank) => ({
  name,
  dirs: [`electron/core/${name}`],
  mayImport: CORE_LAYERS.slice(0, rank),
  forbidPackages: [noElectron],
}));
// The report's HTML is the renderer's report view rendered on the server side (react-dom/server):
// one code path decides a report's content for the CLI, browser mode and the app.
const reportView = 'renderer/src/report/';
export const LAYERS_OUTSIDE_CORE = [
  {
    name: 'cli',
    dirs: ['electron/cli'],
    mayImport: [...CORE_LAYERS, 'server'],
    mayImportPaths: [reportView],
    forbidPackages: [noElectron],
  },
  { name: 'server', dirs: ['electron/server'], mayImport: CORE_LAYERS, mayImportPaths: [reportView], forbidPackages: [noElectron] },
  // The Electron glue: the one place that imports Electron. The main process hosts the backend
  // (core) and prints the report view; the sandboxed preload only forwards the contract's verbs.
  { name: 'main', dirs: ['electron/main'], mayImport: CORE_LAYERS, mayImportPaths: [reportView] },
  {
    name: 'preload',
    dirs: ['electron/preload'],
    mayImportPaths: ['electron/shared/contract/contract-names.ts', 'electron/shared/contract/bridge.ts'],
    forbidPackages: [{ name: 'node:', why: 'a sandboxed preload gets no Node modules: only electron' }],
  },
  {
    name: 'renderer',
    dirs: ['renderer'],
    // The renderer is web code: no Node, and of core only the contract and the pure modules it
    // shares with the backend (tsconfig.web.json checks they stay free of Node APIs).
    mayImportPaths: [
      'electron/shared/contract/contract.ts',
      'electron/shared/contract/bridge.ts',
      'electron/shared/model/',
      'electron/shared/analysis/compare.ts',
      'electron/shared/analysis/units.ts',
      'electron/shared/analysis/encryption.ts',
      'electron/shared/analysis/working-set.ts',
      'electron/shared/analysis/sustained-write.ts',
      'electron/shared/catalog/presets.ts',
      'electron/shared/model/spec.ts',
      'electron/core/report/',
    ],
    // Types only: a value import would bundle the contract's zod schemas into the page; shared
    // constants live in model/.
    typeOnlyPaths: ['electron/shared/contract/contract.ts', 'electron/shared/contract/bridge.ts'],
    forbidPackages: [
      { name: 'node:', why: 'the renderer runs sandboxed without Node; ask the backend through the API contract' },
      noElectron,
      { name: 'ws', why: 'use renderer/src/api' },
    ],
  },
];
export const LAYERS = [...CORE, ...LAYERS_OUTSIDE_CORE];

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
    docs: { description: 'imports follow the layering of design.md: no upward imports, no Electron in core, no Node in the renderer' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      upward: '{{from}} may not import {{to}} ({{target}}): {{from}} may import only {{allowed}}. Move the shared code down a layer.',
      forbidden: '{{from}} may not import the package "{{target}}"{{why}}',
      typeOnly: '{{from}} may import only types from {{target}} (import type …): move a shared value to electron/shared/model/',
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
      if (!there || there === here || (here.mayImport ?? []).includes(there.name)) return;
      const rel = relative(root, target).split('\\').join('/');
      if ((here.typeOnlyPaths ?? []).some((prefix) => rel.startsWith(prefix))) {
        if (!typeOnly(node)) context.report({ node, messageId: 'typeOnly', data: { from: here.name, target: source } });
        return;
      }
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
