// THE list of the formats a run's figures can come from, with the words for each: the result
// schema (schemas.ts), the library's list (run-summary.ts), the importers' table
// (formats/index.ts, one detect + parse per format), the CLI's import help and summary, the
// Library page's hints and the "unrecognised format" error all read it; the README and
// docs/cli.md are checked against it (scripts/docs.test.ts). A format added here fails the
// type check until it has an importer and its words.
//
// Pure data: the renderer bundles this module.

/** In the order prose names them: the other tools first, DiskDelta's own export last. */
export const SOURCE_FORMATS = ['bonnie++', 'fio', 'kdiskmark', 'crystaldiskmark', 'diskdelta'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

export interface SourceFormatWords {
  /** The tool, as its authors spell it. */
  tool: string;
  /** The file DiskDelta reads, short: "fio JSON". */
  file: string;
  /** How the tool writes it, where that is more than its name ("--output-format=json or json+"). */
  how?: string;
  /** The tool's versions DiskDelta reads (formats/README.md says how each is read). */
  versions?: string;
}

export const SOURCE_FORMAT_WORDS: Readonly<Record<SourceFormat, SourceFormatWords>> = {
  'bonnie++': { tool: 'bonnie++', file: 'bonnie++ CSV', how: 'alone or in its whole output', versions: '1.03–2.00a' },
  fio: { tool: 'fio', file: 'fio JSON', how: '--output-format=json or json+', versions: '2.x–3.x' },
  kdiskmark: { tool: 'KDiskMark', file: 'KDiskMark text', versions: '1.x–3.x' },
  crystaldiskmark: { tool: 'CrystalDiskMark', file: 'CrystalDiskMark text', versions: '3–8' },
  diskdelta: { tool: 'DiskDelta', file: "DiskDelta's own JSON export" },
};

/** The formats of other tools (all but DiskDelta's own export), in the list's order. */
export const FOREIGN_FORMATS = SOURCE_FORMATS.filter((f) => f !== 'diskdelta');

/** "a, b, c or d" (conjunction "and" or "or"). */
export function wordList(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** The tools whose results DiskDelta imports: "bonnie++, fio, KDiskMark, CrystalDiskMark". */
export function foreignToolNames(): string[] {
  return FOREIGN_FORMATS.map((f) => SOURCE_FORMAT_WORDS[f].tool);
}

/** One format in full: "fio JSON (--output-format=json or json+; 2.x–3.x)". */
export function formatText(format: SourceFormat): string {
  const { file, how, versions } = SOURCE_FORMAT_WORDS[format];
  const notes = [how, versions].filter(Boolean).join('; ');
  return notes ? `${file} (${notes})` : file;
}

/** Every format in full, as one list: what the importers read. */
export function formatsText(formats: readonly SourceFormat[] = SOURCE_FORMATS, conjunction: 'and' | 'or' = 'and'): string {
  return wordList(formats.map(formatText), conjunction);
}
