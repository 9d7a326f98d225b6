// The assessment page's verdicts (and Overview's, which shows the open assessment): the same
// data the report's page 1 and `diskdelta assess show` render (shared/analysis/verdicts.ts),
// laid out as cards. Nothing is judged here: a sentence or a figure that is not in the verdicts
// does not appear.
import {
  assessmentVerdicts,
  HEADLINE_SLOTS,
  ignoredSentence,
  type AssessmentVerdicts,
  type VerdictFigure,
} from '../../../electron/shared/analysis/verdicts.ts';
import { assessmentRunIds, type Assessment } from '../../../electron/shared/model/assessment.ts';
import type { CipherCeilings } from '../../../electron/shared/model/cipher-types.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';

export interface VerdictCard {
  id: 'speed' | 'encryption' | 'published' | 'trim' | 'size';
  title: string;
  sentence: string;
  /**
   * The sentence already opens with the title ("What online discard costs was not measured …"):
   * the card bolds those words instead of saying them twice ("What online discard costs: What …").
   */
  titleOpensSentence: boolean;
}

export interface VerdictFigureRow {
  title: string;
  before: VerdictFigure | null;
  after: VerdictFigure | null;
  /** Under dm-crypt: measured, estimated (forecast) or the published story's. */
  crypt: VerdictFigure | null;
  change: string | null;
}

export interface VerdictsView {
  cards: VerdictCard[];
  rows: VerdictFigureRow[];
  /** The third column's heading: what it is (measured, forecast, published). */
  cryptHeading: string;
  /** Steps holding a run that does not fit them: left out of every verdict. */
  ignored: string[];
}

/**
 * The verdicts of `a` from the runs the app has read (`records`, by id) and the shipped
 * references (the published story beside a reference's after run); null until every run of
 * the assessment is read.
 */
export function assessmentVerdictsView(
  a: Assessment,
  records: Readonly<Record<number, RunRecord>>,
  references: readonly RunRecord[],
  ceilings: CipherCeilings | null,
): VerdictsView | null {
  const ids = assessmentRunIds(a);
  const runs = ids.map((id) => records[id]);
  if (runs.some((r) => r === undefined)) return null;
  const mine = runs as RunRecord[];
  return verdictsView(assessmentVerdicts(a, mine, ceilings, [...mine, ...references]));
}

export function verdictsView(v: AssessmentVerdicts): VerdictsView {
  const enc = v.encryption;
  const third = enc.basis === 'none' ? (enc.published?.column ?? {}) : enc.column;
  const rows = HEADLINE_SLOTS.flatMap((slot): VerdictFigureRow[] => {
    const speed = v.speedUp.rows.find((r) => r.slot === slot.id);
    const crypt = third[slot.id] ?? null;
    if (!speed && !crypt) return [];
    return [
      { title: slot.title, before: speed?.before ?? null, after: speed?.after ?? null, crypt, change: speed?.delta?.ratioText ?? null },
    ];
  });
  return {
    cards: [
      card('speed', 'How much faster', v.speedUp.sentence),
      card('encryption', 'What encryption costs', enc.sentence),
      ...(enc.published ? [card('published', 'The published story', enc.published.sentence)] : []),
      card('trim', 'What online discard costs', v.trim.sentence),
      card('size', 'Whether your data fits', v.size.sentence),
    ],
    rows,
    cryptHeading:
      enc.basis === 'measured'
        ? 'Under dm-crypt (measured)'
        : enc.basis === 'forecast'
          ? 'Under dm-crypt (forecast, estimated)'
          : enc.published
            ? 'Under dm-crypt (the published story, another machine)'
            : 'Under dm-crypt (not known)',
    ignored: v.ignored.map(ignoredSentence),
  };
}

function card(id: VerdictCard['id'], title: string, sentence: string): VerdictCard {
  return { id, title, sentence, titleOpensSentence: sentence.startsWith(title) };
}

/** A card as the page reads: "Title: sentence", or the sentence alone where it opens with the title. */
export function verdictCardText(c: VerdictCard): string {
  return c.titleOpensSentence ? c.sentence : `${c.title}: ${c.sentence}`;
}
