// The result model is written once: zod schemas in schemas.ts (and run-summary.ts), each type
// inferred from its schema. Hand-kept interfaces beside the schemas drifted before (the importer
// refused DiskDelta's own exports), so no source file may declare one of those types again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MODEL_FILES = ['electron/shared/model/schemas.ts', 'electron/shared/model/run-summary.ts'];

/** The .ts/.tsx files under dir; fixtures (sysfs trees full of symlink loops) and node_modules left out. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : sources(path);
    return e.isFile() && /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** The types a model file infers from its schemas: `export type X = z.infer<typeof xSchema>`. */
function inferredTypes(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/^export type (\w+) = z\.infer<typeof \w+>;$/gm)].map((m) => m[1]!);
}

test('every type of the result model is inferred from its schema', () => {
  const inferred = MODEL_FILES.flatMap(inferredTypes);
  for (const name of [
    'RunRecord',
    'TestResult',
    'RunMeasurement',
    'Figure',
    'SystemFacts',
    'DeviceFingerprint',
    'StackLayer',
    'RunSummary',
    'RunFilter',
  ]) {
    assert.ok(inferred.includes(name), `${name} is not z.infer of a schema`);
  }
});

test('no source file keeps a hand-written mirror of a model type, nor a check that ties one to its schema', () => {
  const inferred = new Set(MODEL_FILES.flatMap(inferredTypes));
  const mirrors: string[] = [];
  // A hand-written shape (an interface, a type of an object literal) by a model type's name.
  for (const path of [...sources('electron'), ...sources('renderer')]) {
    if (path.endsWith('.test.ts')) continue;
    const text = readFileSync(join(ROOT, path), 'utf8');
    for (const m of text.matchAll(/^\s*(?:export\s+)?(?:interface\s+(\w+)\b|type\s+(\w+)\s*(?:<[^=]*>)?\s*=\s*(?:\|\s*)?\{)/gm)) {
      const name = m[1] ?? m[2]!;
      if (inferred.has(name)) mirrors.push(`${path}: ${name}`);
    }
    if (/\bagree<Exact</.test(text)) mirrors.push(`${path}: an agree<Exact<…>> mirror check`);
  }
  assert.deepEqual(mirrors, [], 'declare the shape once, as a schema, and use z.infer');
});
