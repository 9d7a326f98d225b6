// The layers of core/, bottom first. A module may import its own layer and the layers below
// it, never one above; core/ imports nothing outside core/ (no cli/, server/, main/, renderer/).
//
//   model     the result model, catalog, failure codes, machine-fact types: pure data and schemas
//   files     writing a file a person chose (no data model of its own)
//   system    reads the machine (sysfs, mountinfo, dm)
//   analysis  units, comparison
//   formats   importers and exporters of result files
//   store     the SQLite library
//   bench     measurement kinds, the worker client, the orchestrator
//   report    what a report contains (from the comparison and analyses), its printers
//   api       the contract and the procedures over all of the above
//
// Tests (*.test.ts) are exempt: they may wire layers together to check them against each other.
// A lint rule may replace this scan later; until then it fails on the first upward import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LAYERS = ['model', 'files', 'system', 'analysis', 'formats', 'store', 'bench', 'report', 'api'] as const;

const CORE = dirname(fileURLToPath(import.meta.url));

/** Every relative import or re-export specifier of a module. */
export function importsOf(source: string): string[] {
  const specs = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/g), ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return specs.map((m) => m[1]!).filter((s) => s.startsWith('.'));
}

/** The layer of a path under core/, or null outside core/. */
function layerOf(path: string): string | null {
  const rel = relative(CORE, path);
  if (rel.startsWith('..')) return null;
  return rel.split('/')[0] ?? null;
}

export function upwardImports(): string[] {
  const problems: string[] = [];
  const files = globSync('**/*.ts', { cwd: CORE }).filter((f) => !f.endsWith('.test.ts') && !f.includes('/fixtures/'));
  for (const file of files) {
    const from = layerOf(join(CORE, file))!;
    const fromRank = LAYERS.indexOf(from as (typeof LAYERS)[number]);
    if (fromRank < 0) {
      if (file.includes('/')) problems.push(`${file}: core/${from} is not a layer in LAYERS (add it in order)`);
      continue;
    }
    for (const spec of importsOf(readFileSync(join(CORE, file), 'utf8'))) {
      const target = resolve(CORE, dirname(file), spec);
      const to = layerOf(target);
      if (to === null) {
        problems.push(`core/${file} imports ${spec}, outside core/`);
        continue;
      }
      const toRank = LAYERS.indexOf(to as (typeof LAYERS)[number]);
      if (toRank > fromRank) problems.push(`core/${file} (${from}) imports ${spec} (${to}), a layer above it`);
    }
  }
  return problems;
}

test('no module of core/ imports a layer above its own, or anything outside core/', () => {
  assert.deepEqual(upwardImports(), []);
});

test('the scan sees imports, re-exports and dynamic imports', () => {
  const source = `import { a } from '../api/x.ts';\nexport { b } from "./y.ts";\nimport type {\n  C,\n} from '../store/z.ts';\nconst m = await import('../bench/w.ts');\nimport { z } from 'zod';`;
  assert.deepEqual(importsOf(source), ['../api/x.ts', './y.ts', '../store/z.ts', '../bench/w.ts']);
});
