// What the library keeps about the machine, laid over the Overview's live picture: the newest
// TRIM audit of each mount. Pure (types and shared wording only), so the procedures stay free of system/ modules.
import type { TrimAuditResult } from '../system/discard-audit.ts';
import type { SystemOverview } from '../../shared/contract/contract.ts';
import { cannotTellWords } from '../../shared/model/trim-words.ts';

/** Sets each mount's "TRIM seen reaching …" from the newest audit the library keeps for it. */
export function withTrimAudits(overview: SystemOverview, audits: TrimAuditResult[]): SystemOverview {
  const byMount = new Map(audits.map((a) => [a.mountPoint, a]));
  return {
    ...overview,
    mounts: overview.mounts.map((m) => {
      const a = byMount.get(m.path);
      if (!a) return m;
      const bottom = a.audit.layers.at(-1);
      return {
        ...m,
        trimSeen: {
          at: a.at,
          deepestReached: a.audit.deepestReached,
          stoppedAt: a.audit.stoppedAt,
          refusedBy: a.audit.refusedBy ?? null,
          reachedBottom: bottom?.reached === true,
          // The same sentence `trim-audit` prints, so the Overview says what the audit said.
          cannotTell: a.audit.cannotTell ? cannotTellWords(a.audit.cannotTell) : null,
        },
      };
    }),
  };
}
