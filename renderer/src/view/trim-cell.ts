// The Overview's "TRIM reaches the disk" cell: what an audit saw, when one ran; otherwise what the
// tables say, marked as such, with the command that would look.
import type { SystemOverview } from '../../../electron/shared/contract/contract.ts';

type Mount = SystemOverview['mounts'][number];

export interface TrimCell {
  text: string;
  /** seen: counted by an audit; tables: read from the stack's settings only; unknown. */
  basis: 'seen' | 'tables' | 'unknown';
  /** How to find out (or look again). */
  hint: string;
  /** The command in the hint, shown as one unbroken piece of code. */
  command: string;
}

export function trimCell(m: Mount): TrimCell {
  const audit = `diskdelta trim-audit ${m.path}`;
  const seen = m.trimSeen;
  if (seen) {
    const day = seen.at.slice(0, 10);
    const stops = seen.refusedBy ? `TRIM stops at ${seen.refusedBy}, which takes no discards` : null;
    // A driver that counts no discards (zram) cannot show one: the audit's own sentence, never "no layer saw a discard".
    const text = !seen.deepestReached
      ? `${stops ?? seen.cannotTell ?? 'no layer saw a discard'} (audit ${day})`
      : seen.reachedBottom
        ? `seen reaching ${seen.deepestReached} on ${day}`
        : `seen reaching ${seen.deepestReached} on ${day}, ${stops ? stops.replace('TRIM stops', 'stops') : `stopped below ${seen.stoppedAt ?? 'it'}`}`;
    return { text, basis: 'seen', hint: `counted by the kernel's discard counters; ${audit} looks again`, command: audit };
  }
  if (m.trimReachesDisk === null) return { text: 'unknown', basis: 'unknown', hint: `to see: ${audit} (as root)`, command: audit };
  return {
    text: `${m.trimReachesDisk ? 'yes' : 'no'}, by the tables`,
    basis: 'tables',
    hint: `not yet seen: ${audit} (as root) counts what a delete and fstrim reach`,
    command: audit,
  };
}
