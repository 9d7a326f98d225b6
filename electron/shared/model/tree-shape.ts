// The shape of a source tree, derived from a real release's tarball listing (`tar tvf`) and
// shipped as data (assets/workloads/*.tree-shape.json): how many files and folders at each
// depth, how file sizes are spread (log2 buckets, each with its count and exact byte total) and
// how many files a folder holds. The worker's `tree` verb writes a tree of this shape; its C
// table (native/src/tree-shape.h) is generated from the JSON by `npm run gen:tree-shape`.
//
// Pure data and functions: no I/O here (scripts/derive-tree-shape.ts reads the listing).

export interface TreeDepth {
  /** Path components below the tree's root: a file at depth 1 lies in the root folder. */
  depth: number;
  /** Folders at this depth. */
  dirs: number;
  /** Regular files at this depth (they lie in folders of depth − 1). */
  files: number;
}

export interface SizeBucket {
  /** Sizes in (max / 2, max] bytes; the first bucket (max 0) holds the empty files. */
  max: number;
  files: number;
  /** Exact sum of the bucket's file sizes, bytes. */
  bytes: number;
}

export interface TreeShape {
  /** The release, named: what it is and where the listing came from. */
  release: string;
  /** A short id for results and the C table, e.g. "linux-6.1.192". */
  id: string;
  files: number;
  bytes: number;
  dirs: number;
  /** Symbolic links in the release: not written (a workload of data, not of links). */
  symlinks: number;
  depths: TreeDepth[];
  sizes: SizeBucket[];
  /** Files per folder (folders holding files), for people: the generator spreads files evenly per depth. */
  fanout: { p50: number; p90: number; p99: number; max: number };
}

/** The bucket a size falls in: 0 → 0, 1 → 1, 2 → 2, 3..4 → 4, 5..8 → 8 … */
export function bucketMax(size: number): number {
  if (size <= 0) return 0;
  let max = 1;
  while (max < size) max *= 2;
  return max;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

// One `tar tvf` line: mode, owner, size, date, time, name (symlinks: "name -> target").
const LINE = /^([-dlhbcp])\S*\s+\S+\s+(\d+)\s+\S+\s+\S+\s+(.+)$/;

/**
 * The shape of the tree a `tar tvf` listing describes. Its single top folder (linux-source-6.1/)
 * is the root; hard links and devices are not expected in a source release and are refused.
 */
export function deriveTreeShape(listing: string, release: string, id: string): TreeShape {
  const depths = new Map<number, TreeDepth>();
  const sizes = new Map<number, SizeBucket>();
  const perDir = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  let dirs = 0;
  let symlinks = 0;
  const at = (depth: number) => {
    const d = depths.get(depth) ?? { depth, dirs: 0, files: 0 };
    depths.set(depth, d);
    return d;
  };
  for (const line of listing.split('\n')) {
    if (!line.trim()) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a \`tar tvf\` line: ${line.slice(0, 120)}`);
    const [, type, sizeText, rawName] = m as unknown as [string, string, string, string];
    const name = type === 'l' ? rawName.replace(/ -> .*$/, '') : rawName;
    const parts = name.replace(/\/$/, '').split('/').slice(1); // below the top folder
    if (parts.length === 0) continue; // the top folder itself
    if (type === 'l') {
      symlinks++;
      continue;
    }
    if (type === 'd') {
      dirs++;
      at(parts.length).dirs++;
      continue;
    }
    if (type !== '-') throw new Error(`a source release holds files, folders and links, not '${type}': ${name}`);
    const size = Number(sizeText);
    files++;
    bytes += size;
    at(parts.length).files++;
    const bucket = sizes.get(bucketMax(size)) ?? { max: bucketMax(size), files: 0, bytes: 0 };
    sizes.set(bucket.max, bucket);
    bucket.files++;
    bucket.bytes += size;
    const dir = parts.slice(0, -1).join('/');
    perDir.set(dir, (perDir.get(dir) ?? 0) + 1);
  }
  const fan = [...perDir.values()].sort((a, b) => a - b);
  return {
    release,
    id,
    files,
    bytes,
    dirs,
    symlinks,
    depths: [...depths.values()].sort((a, b) => a.depth - b.depth),
    sizes: [...sizes.values()].sort((a, b) => a.max - b.max),
    fanout: { p50: quantile(fan, 0.5), p90: quantile(fan, 0.9), p99: quantile(fan, 0.99), max: fan.at(-1) ?? 0 },
  };
}

/** The C table the worker's `tree` verb writes from (native/src/tree-shape.h). */
export function treeShapeHeader(shape: TreeShape): string {
  const rows = (items: string[]) => items.map((s) => `    ${s},`).join('\n');
  return [
    '// GENERATED from assets/workloads/' + shape.id + '.tree-shape.json by `npm run gen:tree-shape`: do not edit.',
    `// ${shape.release}`,
    '#ifndef DD_TREE_SHAPE_H',
    '#define DD_TREE_SHAPE_H',
    '',
    '#include <stdint.h>',
    '',
    `#define TREE_SHAPE_ID "${shape.id}"`,
    `#define TREE_SHAPE_FILES ${shape.files}ull`,
    `#define TREE_SHAPE_BYTES ${shape.bytes}ull`,
    `#define TREE_SHAPE_DIRS ${shape.dirs}ull`,
    '',
    '// Per depth (path components below the root): folders, files.',
    'typedef struct { uint32_t dirs, files; } tree_depth_t;',
    'static const tree_depth_t TREE_DEPTHS[] = {',
    rows(shape.depths.map((d) => `{${d.dirs}, ${d.files}}`)),
    '};',
    '',
    '// File sizes: bucket (max/2, max] bytes, its files and their exact byte total.',
    'typedef struct { uint64_t max, files, bytes; } tree_size_bucket_t;',
    'static const tree_size_bucket_t TREE_SIZES[] = {',
    rows(shape.sizes.map((b) => `{${b.max}ull, ${b.files}ull, ${b.bytes}ull}`)),
    '};',
    '',
    '#define TREE_DEPTH_COUNT (sizeof TREE_DEPTHS / sizeof TREE_DEPTHS[0])',
    '#define TREE_SIZE_COUNT (sizeof TREE_SIZES / sizeof TREE_SIZES[0])',
    '',
    '#endif',
    '',
  ].join('\n');
}
