// `diskdelta import FILE…`: results of another tool (model/source-formats.ts lists them) or a
// DiskDelta export into the library (format detected from the content), and
// `diskdelta import --reference`: the published figures shipped in assets/reference/.
// Every file is read and parsed before anything is written, and all runs are saved in one
// transaction: one bad file and the library is left exactly as it was. A run already imported
// (same file bytes, same place in the file) is skipped and named, not added twice.
import { basename } from 'node:path';
import { EXIT_FAILURE, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, checkLabel, withLibrary } from '../library-cli.ts';
import { asShippedReferences, ImportError, loadReferenceRuns, parseImport, readImportFile } from '../../node/formats/index.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { ALREADY_PRESENT_WHY, importFingerprints, type ImportItem, type Library } from '../../node/store/library.ts';
import { writeOut } from '../terminal.ts';
import { sayFailure } from '../failure-out.ts';
import { counted, shortPath } from '../../shared/model/display.ts';
import { formatsText } from '../../shared/model/source-formats.ts';
import { wrap } from '../wrap.ts';

const HELP = `Usage: diskdelta import FILE... [--label TEXT] [--db FILE]
       diskdelta import --reference [--db FILE]

${wrap(`Adds results from other tools to the library. The format is recognised from the content: ${formatsText()}. One file may hold several runs (bonnie++ rows). Either every file is imported or, on the first error, none is.`, 92)}
A run the library already holds is skipped and named with its library id and why: the same
file imported before, or the same measurement in another file (its own export, a CSV that
grew a row), whatever its label.

  --label TEXT   label the imported runs: "TEXT"; with several files each says its file,
                 "TEXT (a.json)"; several runs of one file are numbered, "TEXT (2/3)"
  --reference    add the reference runs shipped with DiskDelta (the 2011 HDD → SSD →
                 SSD + dm-crypt bonnie++ figures, the discard timings); runs already in
                 the library are not added twice
${DB_HELP}`;

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENAMETOOLONG: 'the name is too long',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

interface ReadFile {
  path: string;
  runs: RunRecord[];
  /** One per run: see importFingerprints(). */
  fingerprints: string[];
}

async function readRuns(paths: string[], recognizeReferences: boolean): Promise<ReadFile[]> {
  const files: ReadFile[] = [];
  // A shipped reference file imported by name is kept as the reference data it is (listed once).
  const shipped = recognizeReferences ? await loadReferenceRuns().catch(() => [] as RunRecord[]) : [];
  for (const path of paths) {
    let file: { text: string; fileName: string; bytes: Uint8Array };
    try {
      file = await readImportFile(path);
    } catch (error) {
      if (error instanceof ImportError) throw new CliFailure(`${error.message}; nothing was imported`);
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const reason = FS_REASONS[code] ?? (error instanceof Error ? error.message : String(error));
      throw new CliFailure(`cannot read ${shortPath(path)}: ${reason}; nothing was imported`);
    }
    try {
      const runs = asShippedReferences(parseImport(file.text, file.fileName), shipped);
      files.push({ path, runs, fingerprints: importFingerprints(file.bytes, runs.length) });
    } catch (error) {
      if (error instanceof ImportError) throw new CliFailure(`${error.message}; nothing was imported`);
      throw error;
    }
  }
  return files;
}

function report(library: Library, ids: number[], from: string): void {
  const summaries = new Map(library.listRuns().map((s) => [s.id, s]));
  writeOut(`Imported ${counted(ids.length, 'run')} ${from} into ${library.path}:\n`);
  for (const id of ids) {
    const s = summaries.get(id);
    if (s) writeOut(`  ${String(id).padStart(4)}  ${s.source === 'measured' ? '' : `[${s.source}] `}${s.sourceFormat}  ${s.label}\n`);
  }
}

async function importReference(dbFlag: string | undefined): Promise<number> {
  let runs: RunRecord[];
  try {
    runs = await loadReferenceRuns();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return sayFailure('import', `cannot load the reference runs: ${message}`, EXIT_FAILURE);
  }
  return withLibrary('import', dbFlag, (library) => {
    const present = library.listRuns({ source: 'reference' });
    const key = (label: string, createdAt: string) => `${label}\u0000${createdAt}`;
    const have = new Map(present.map((s) => [key(s.label, s.createdAt), s.id]));
    const missing = runs.filter((run) => !have.has(key(run.label, run.createdAt)));
    if (missing.length === 0) {
      const ids = runs.map((run) => have.get(key(run.label, run.createdAt)));
      writeOut(`The reference runs are already in ${library.path}: ${ids.join(', ')}.\n`);
      return 0;
    }
    report(library, library.saveRuns(missing), 'of reference data (published figures, see assets/reference/)');
    return 0;
  });
}

/**
 * --label for each run of each file: runs of different files are not one numbered series
 * ("mine (1/2)" and "mine (2/2)" for a.json and b.csv read as one file's two runs), so each
 * names its file when there are several files, and runs are numbered within their own file.
 */
export function labelsFor(label: string, files: Array<{ path: string; runs: number }>): string[][] {
  return files.map((file) =>
    Array.from({ length: file.runs }, (_, i) => {
      const parts = [files.length > 1 ? basename(file.path) : '', file.runs > 1 ? `${i + 1}/${file.runs}` : ''].filter(Boolean);
      return parts.length > 0 ? `${label} (${parts.join(', ')})` : label;
    }),
  );
}

export const importCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        label: { type: 'string' },
        reference: { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    if (values.reference) {
      if (positionals.length > 0 || values.label !== undefined) throw new UsageError('--reference takes no files and no --label');
      return importReference(values.db);
    }
    if (positionals.length === 0) throw new UsageError('which files? Usage: diskdelta import FILE... (or --reference)');
    const label = values.label?.trim();
    if (label === '') throw new UsageError('--label is empty');
    if (label !== undefined && label.length > 200) throw new UsageError(`--label is ${label.length} characters long; keep it to 200`);
    if (label !== undefined) checkLabel(label, '--label');

    let files: ReadFile[];
    try {
      files = await readRuns(positionals, label === undefined);
    } catch (error) {
      if (!(error instanceof CliFailure)) throw error;
      return sayFailure('import', error.message, EXIT_FAILURE);
    }
    const runs = files.flatMap((f) => f.runs);
    if (runs.length === 0) {
      return sayFailure('import', 'the files hold no results; nothing was imported', EXIT_FAILURE);
    }
    if (label !== undefined) {
      const labels = labelsFor(
        label,
        files.map((f) => ({ path: f.path, runs: f.runs.length })),
      );
      files.forEach((file, f) => file.runs.forEach((run, i) => (run.label = labels[f]![i]!)));
    }
    const items: ImportItem[] = [];
    const origins: string[] = [];
    for (const file of files) {
      file.runs.forEach((run, i) => {
        items.push({ run, fingerprint: file.fingerprints[i]! });
        origins.push(file.runs.length === 1 ? file.path : `${file.path}, run ${i + 1} of ${file.runs.length}`);
      });
    }
    return withLibrary('import', values.db, (library) => {
      const outcomes = library.importRuns(items);
      const saved = outcomes.filter((o) => !o.alreadyPresent).map((o) => o.id);
      if (saved.length > 0) report(library, saved, `from ${counted(files.length, 'file')}`);
      const skipped = outcomes.flatMap((o, i) =>
        o.alreadyPresent ? [`  ${origins[i]}: already in the library as #${o.id} (${ALREADY_PRESENT_WHY[o.why]})\n`] : [],
      );
      if (skipped.length > 0) {
        writeOut(
          saved.length === 0
            ? `Nothing imported: every run is already in ${library.path}:\n`
            : `Skipped ${counted(skipped.length, 'run')} already in the library:\n`,
        );
        writeOut(skipped.join(''));
      }
      return 0;
    });
  },
};
