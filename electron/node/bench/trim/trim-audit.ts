// The TRIM audit, run: read the discard counters of every block layer under a folder, delete a
// file there (the worker's bigfile workload: written, synced, deleted, synced), run fstrim on its
// filesystem (root), read the counters again. Which layers saw discards is then a fact, set
// beside what the tables say (system/discard-audit.ts).
import { blockLayers, judgeAudit, readDiscardCounters, type TrimAuditResult } from '../../system/discard-audit.ts';
import { describeTarget } from '../../system/index.ts';
import { BenchError } from '../errors.ts';
import { runCommand } from './run-command.ts';
import { bigfileArgv } from '../worker-argv.ts';
import { locateWorker, runWorker } from '../worker-client.ts';
import { stderrTail, withStderr } from '../../../shared/model/stderr-tail.ts';
import { checkTarget } from '../target-check.ts';
import { cannotTellWords } from '../../../shared/model/trim-words.ts';
import { formatCount, groupedDecimals } from '../../../shared/analysis/units.ts';

export interface TrimAuditOptions {
  /** Run fstrim after the delete (root; default true). */
  fstrim?: boolean;
  /** The audit file's size, bytes (default 64 MiB). */
  sizeBytes?: number;
  workerPath?: string;
  signal?: AbortSignal;
}

/** "/mnt: 1.2 GiB (1288490188 bytes) trimmed" → 1288490188. */
export function parseFstrimBytes(stdout: string): number | null {
  const m = /\((\d+) bytes\) trimmed/.exec(stdout);
  return m ? Number(m[1]) : null;
}

export async function runTrimAudit(target: string, options: TrimAuditOptions = {}): Promise<TrimAuditResult> {
  await checkTarget(target);
  const { target: info } = await describeTarget(target);
  const stack = info.stack ?? [];
  const mount = stack[1]?.kind === 'mount' ? stack[1] : null;
  const mountPoint = typeof mount?.details.mountPoint === 'string' ? mount.details.mountPoint : null;
  const layers = blockLayers(stack);
  if (layers.length === 0)
    throw new BenchError(
      'target-virtual-fs',
      `${target} lies on no block device (a memory or network filesystem): there is no TRIM to audit`,
    );
  const sizeBytes = options.sizeBytes ?? 64 * 2 ** 20;
  const before = await readDiscardCounters(layers);
  const exit = await runWorker(bigfileArgv({ target, sizeBytes, runs: 1, warmupPasses: 0 }), {
    workerPath: options.workerPath ?? locateWorker(),
    signal: options.signal,
    onMessage: () => {},
    onInvalid: () => {},
  });
  if (exit.code !== 0)
    throw BenchError.fromWorker(
      undefined,
      withStderr(`the audit's delete failed (worker exit ${exit.code ?? exit.signal})`, exit.stderr),
      exit.code,
    );
  // zram's mm_stat just before fstrim: what fstrim then frees is its evidence where counters are blind.
  const beforeTrim = await readDiscardCounters(layers);
  let fstrim: TrimAuditResult['fstrim'];
  if (options.fstrim === false) fstrim = { skipped: 'not asked' };
  else if (process.getuid?.() !== 0) fstrim = { skipped: 'fstrim needs root: run the audit as root to see what a periodic TRIM reaches' };
  else if (!mountPoint) fstrim = { skipped: 'the mount point is unknown' };
  else {
    const started = performance.now();
    const r = await runCommand('fstrim', ['-v', mountPoint]);
    const seconds = (performance.now() - started) / 1000;
    fstrim =
      r.code === 0
        ? { seconds, bytes: parseFstrimBytes(r.stdout) }
        : { skipped: `fstrim failed: ${stderrTail(r.stderr, 2).join('; ') || `exit ${r.code}`}` };
  }
  // Discards a filesystem issues online are sent when its journal commits: wait for that.
  await runCommand('sync', []);
  const after = await readDiscardCounters(layers);
  return {
    target,
    at: new Date().toISOString(),
    mountPoint,
    onlineDiscard: typeof mount?.details.onlineDiscard === 'string' ? mount.details.onlineDiscard : null,
    ...(mount?.details.discardRemountedByPid != null && mount.reasons?.onlineDiscard
      ? { onlineDiscardNote: mount.reasons.onlineDiscard }
      : {}),
    deletedBytes: sizeBytes,
    fstrim,
    audit: judgeAudit(layers, before, after, 'bytes' in fstrim ? fstrim.bytes : null, beforeTrim),
  };
}

/** The audit in lines, for the CLI: each layer's discards beside what its tables say. */
export function trimAuditText(r: TrimAuditResult): string {
  const rows = r.audit.layers.map((l) => {
    const seen = l.uncounted
      ? `cannot tell on this driver (${l.uncounted})`
      : l.discards === null
        ? 'unknown (no counters)'
        : `${formatCount(l.discards)} discards, ${groupedDecimals((l.bytes ?? 0) / 2 ** 20, 1)} MiB`;
    const tables = [
      `discard_max_bytes ${l.discardMaxBytes ?? 'unknown'}`,
      ...(l.kind === 'dm-crypt' ? [`allow_discards ${l.allowDiscards === null ? 'unknown' : l.allowDiscards ? 'yes' : 'no'}`] : []),
    ].join(', ');
    return `  ${l.reached ? '✔' : l.reached === false ? '✘' : '?'} ${l.kind} ${l.name}${l.device !== l.name ? ` (${l.device})` : ''}: ${seen}; tables: ${tables}${l.mismatch ? `\n    MISMATCH: ${l.mismatch}` : ''}`;
  });
  const trim =
    'skipped' in r.fstrim
      ? `no fstrim (${r.fstrim.skipped})`
      : `fstrim ${r.mountPoint}: ${r.fstrim.seconds.toFixed(2)} s, ${r.fstrim.bytes === null ? 'an unreported number of' : formatCount(r.fstrim.bytes)} bytes trimmed`;
  const refused = r.audit.layers.find((l) => r.audit.refusedBy?.startsWith(`${l.kind} ${l.name}`));
  const why = refused?.kind === 'dm-crypt' && refused.allowDiscards === false ? 'no allow_discards in its table' : 'discard_max_bytes 0';
  const stops = r.audit.refusedBy ? `; TRIM stops at ${r.audit.refusedBy}, which takes no discards (${why})` : '';
  const blind = r.audit.cannotTell ? cannotTellWords(r.audit.cannotTell) : null;
  const verdict = r.audit.deepestReached
    ? `TRIM seen reaching ${r.audit.deepestReached} on ${r.at.slice(0, 10)}${r.audit.stoppedAt ? `; it stopped below ${r.audit.stoppedAt}` : ''}${stops}${blind ? `; below it, ${blind}` : ''}`
    : (blind ?? `no layer saw a discard${stops}`);
  return [
    `TRIM audit of ${r.target} (online discard: ${r.onlineDiscard ?? 'unknown'}${r.onlineDiscardNote ? `: ${r.onlineDiscardNote}` : ''}); deleted ${formatCount(r.deletedBytes / 2 ** 20)} MiB, then ${trim}`,
    ...rows,
    verdict,
    ...(r.audit.mismatches.length ? [`${r.audit.mismatches.length} mismatch(es) between the tables and the counters: see above`] : []),
  ].join('\n');
}
