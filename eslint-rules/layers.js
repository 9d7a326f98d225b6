// ESLint rule `diskdelta/layers`: the import boundaries of design.md, read from one table.
// Options: { layers: [{ name, dirs: [globs as folder prefixes], mayImport: [layer names] }] }.
// A relative import from a file in layer A of a file in layer B is allowed only when A === B or
// B is in A.mayImport; bare module names (packages, node:*) are checked by `forbidPackages`.
import { dirname, relative, resolve } from 'node:path';

/** @param {string} file @param {{name: string, dirs: string[]}[]} layers */
function layerOf(file, layers, root) {
  const rel = relative(root, file).split('\\').join('/');
  let best;
  for (const layer of layers)
    for (const dir of layer.dirs)
      if ((rel === dir || rel.startsWith(dir.endsWith('/') ? dir : `${dir}/`)) && (!best || dir.length > best.dir.length)) best = { layer, dir };
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
            context.report({ node, messageId: 'forbidden', data: { from: here.name, target: source, why: rule.why ? `: ${rule.why}` : '' } });
        return;
      }
      const there = layerOf(resolve(dirname(context.filename), source), layers, root);
      if (!there || there === here || (here.mayImport ?? []).includes(there.name)) return;
      context.report({ node, messageId: 'upward', data: { from: here.name, to: there.name, target: source, allowed: (here.mayImport ?? []).join(', ') || 'nothing outside itself' } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
