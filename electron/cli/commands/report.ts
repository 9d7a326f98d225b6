// `diskdelta report ID…`: the assessment report as a PDF (or, with --html, one self-contained
// HTML file). The content is the report view of the app (electron/shared/report), printed by the
// system's Chromium: the same document the app's "Save PDF" gives.
import { constants } from 'node:fs';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { EXIT_FAILURE, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, parseUnitFlag, requireRuns, withLibrary } from '../library-cli.ts';
import { MAX_REPORT_RUNS, PAPERS, type Paper } from '../../shared/report/paper.ts';
import { ReportPrintError, type ReportPrinter } from '../../shared/report/printer.ts';
import { appVersion } from '../../node/app-version.ts';
import { openUserOutput, UserFileError, type UserOutput } from '../../node/files/write-user-file.ts';
import { renderReportHtmlLazily } from '../../shared/report/report-html-lazy.ts';
import { counted } from '../../shared/model/display.ts';
import { writeErr } from '../terminal.ts';
import type { Forecast } from '../../shared/analysis/candidate-forecast.ts';
import type { JudgedCandidate } from '../../shared/analysis/candidate-judged.ts';
import type { Assessment } from '../../shared/model/assessment.ts';
import { sayFailure } from '../failure-out.ts';
import { writeVolumeLines } from '../../shared/analysis/write-volume.ts';

const HELP = `Usage: diskdelta report ID... [--baseline ID] [--out FILE] [--paper a4|letter] [--html] [--force]
                        [--unit MB|MiB|KB] [--db FILE]

Writes an assessment report of 1 to ${MAX_REPORT_RUNS} runs, each against the baseline: what changed in plain
words, the machine and each run's disk and storage stack, vector charts, every figure with
units, ratios and spreads, every warning, and how the runs were measured. Reference and
imported runs are marked as such.

  --baseline ID  the run every other is compared with (default: the first given); it is
                 #1 on every page, the others follow in the order given
  --out FILE     where to write (default: diskdelta-report-ID-ID….pdf, or .html)
  --paper P      a4 (default) or letter
  --html         one self-contained HTML file (styles and charts inline, no network)
                 instead of a PDF; needs no Chromium
  --force        replace FILE if it exists
  --unit U       throughput unit: MB (10^6 bytes/s, default), MiB (2^20), KB (KiB)
${DB_HELP}
The PDF is printed by the system's Chromium (Debian package "chromium"; DISKDELTA_CHROMIUM
names another executable). Nothing is downloaded. A new file is written whole or not at all;
--force rewrites an existing one in place (owner and mode kept).

Exit codes: 0 written; 2 bad usage (no runs, too many, a bad flag); 1 anything else (unknown
run ids, an existing FILE without --force, FILE not writable, Chromium missing or failing).
FILE may be a device or pipe (/dev/stdout): it is written directly.
`;

export const reportCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        out: { type: 'string' },
        paper: { type: 'string' },
        html: { type: 'boolean' },
        force: { type: 'boolean' },
        unit: { type: 'string' },
        baseline: { type: 'string' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length === 0)
      throw new UsageError("which runs? Usage: diskdelta report ID... (the ids that 'diskdelta list' shows; the first is the baseline)");
    const ids = positionals.map(parseRunId);
    if (ids.length > MAX_REPORT_RUNS)
      throw new UsageError(`a report lays out at most ${MAX_REPORT_RUNS} runs side by side; ${ids.length} were given`);
    return writeReport(baselineFirst(ids, values.baseline), values);
  },
};

/**
 * The runs with the chosen baseline first: every comparison of the report is against #1, so the
 * baseline is #1 and the page says so (never neighbours in the order they were picked, #39).
 */
export function baselineFirst(ids: number[], baseline: string | undefined): number[] {
  if (baseline === undefined) return ids;
  const id = parseRunId(baseline);
  if (!ids.includes(id))
    throw new UsageError(
      `--baseline ${baseline} is not among the runs given (${ids.join(' ')}): name one of them, e.g. --baseline ${ids[0]}`,
    );
  return [id, ...ids.filter((x) => x !== id)];
}

export interface ReportFlags {
  out?: string | undefined;
  paper?: string | undefined;
  html?: boolean | undefined;
  force?: boolean | undefined;
  unit?: string | undefined;
  db?: string | undefined;
}

/** The report of these runs written to --out (or its default name); an assessment's story first when given. */
export async function writeReport(
  ids: number[],
  values: ReportFlags,
  extra: { assessment?: Assessment; name?: string; forecast?: Forecast | null; judged?: JudgedCandidate[] | null } = {},
): Promise<number> {
  const paper = parsePaper(values.paper);
  const unit = parseUnitFlag(values.unit);
  const format = values.html ? 'html' : 'pdf';
  const out = resolve(values.out ?? `${extra.name ?? `diskdelta-report-${ids.join('-')}`}.${format}`);
  // Everything that can be checked before starting Chromium is: a mistake costs no wait.
  // The output is opened (its folder held) before anything renders: a folder swapped for a
  // symlink meanwhile does not redirect the report (files/write-user-file.ts).
  let output: UserOutput;
  try {
    await precheck(out, values.force === true);
    output = await openUserOutput(out, { force: values.force === true }).catch((error: unknown) => {
      throw error instanceof UserFileError ? outputFailure(error) : error;
    });
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    return sayFailure('report', error.message, EXIT_FAILURE);
  }
  // Chromium starts first and comes up while the runs are read and the report is laid out.
  let printer: ReportPrinter | null = null;
  if (format === 'pdf') {
    const { chromiumPrinter } = await import('../../node/report/chromium-printer.ts');
    printer = chromiumPrinter();
    printer.prepare?.();
  }
  try {
    const { renderReport } = await import('../../shared/report/print.ts');
    return await withLibrary('report', values.db, async (library) => {
      const runs = requireRuns(library, ids);
      let rendered;
      try {
        rendered = await renderReport(
          runs,
          {
            format,
            paper,
            unit,
            appVersion: await appVersion(),
            ceilings: library.latestCipherCeilings(await thisCpu()),
            writeVolume: writeVolumeLines(library.writeSamples(), new Date()),
            ...(extra.assessment ? { assessment: extra.assessment } : {}),
            forecast: extra.forecast ?? null,
            judged: extra.judged ?? null,
          },
          { html: renderReportHtmlLazily, printer },
        );
      } catch (error) {
        if (error instanceof ReportPrintError) throw new CliFailure(error.message);
        throw error;
      }
      try {
        await output.write(rendered.bytes);
      } catch (error) {
        if (!(error instanceof UserFileError)) throw error;
        throw outputFailure(error);
      }
      writeErr(
        `Wrote the report of ${counted(runs.length, 'run')} to ${out} (${format.toUpperCase()}, ${paper === 'a4' ? 'A4' : 'Letter'}).\n`,
      );
      return 0;
    });
  } finally {
    await output.close();
    await printer?.close?.();
  }
}

function outputFailure(error: UserFileError): CliFailure {
  return new CliFailure(error.code === 'exists' ? `${error.message}: add --force to replace it` : error.message);
}

function parsePaper(text: string | undefined): Paper {
  if (text === undefined) return 'a4';
  const paper = text.trim().toLowerCase();
  if (!(PAPERS as readonly string[]).includes(paper))
    throw new UsageError(`--paper '${text}' is not a paper size: use ${PAPERS.join(' or ')}`);
  return paper as Paper;
}

/**
 * What can be known before Chromium starts: an existing file without --force, a folder, a
 * disk, a folder that is missing or not writable. writeUserFile checks again when writing.
 */
async function precheck(out: string, force: boolean): Promise<void> {
  const info = await stat(out).catch(() => null);
  if (info?.isFile() && !force) throw new CliFailure(`${out} already exists and was left unchanged: add --force to replace it`);
  if (info?.isDirectory()) throw new CliFailure(`cannot write ${out}: it is a folder; name a file inside it`);
  if (info?.isBlockDevice()) throw new CliFailure(`refusing to write ${out}: it is a block device, and DiskDelta never writes to disks`);
  if (info) return; // a file to replace, or a device or pipe written directly
  const dir = dirname(out);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new CliFailure(
      `cannot write ${out}: the folder ${dir} ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'is not writable'}; choose another --out`,
    );
  }
}
