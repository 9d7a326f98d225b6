// How TRIM facts read, the same in `inspect`, the report's summary and the app: one wording, so
// the report cannot say "the weekly fstrim.timer is enabled" of a timer inspect says never fires,
// nor "online discard on (on)". Pure: the renderer bundles it.
import type { FstrimTimerFacts } from './machine.ts';

/** A mount's online discard as system/ reads it ("on", "async", "off", null) in words. */
export function onlineDiscardWords(value: string | null): string {
  if (value === null) return 'set by the file system itself';
  if (value === 'on' || value === 'off') return value;
  return `on (${value})`;
}

/** Whether a periodic fstrim runs: enabled and firing, enabled but never firing, not enabled, unknown. */
export function fstrimTimerWords(timer: FstrimTimerFacts | null | undefined): string {
  if (!timer || timer.enabled === null) return `whether fstrim.timer is enabled is unknown${timer?.reason ? ` (${timer.reason})` : ''}`;
  if (timer.enabled && timer.systemdRunning === false)
    return 'fstrim.timer is enabled but does not fire: systemd is not the running init here, so no periodic fstrim runs';
  if (timer.enabled)
    return timer.systemdRunning === null
      ? 'fstrim.timer is enabled (weekly); whether systemd runs it here is unknown'
      : 'the weekly fstrim.timer is enabled';
  // Its reason is already the sentence ("fstrim.timer is masked", "… is not installed (util-linux ships it)").
  return timer.reason ?? 'fstrim.timer is not enabled';
}

/**
 * The audit's answer where a layer's driver counts no discards (zram, md, network disks keep no
 * discard counts in /sys/block/X/stat): "cannot tell on this driver", with the evidence there is,
 * never "no layer saw a discard". One sentence for `trim-audit`, the Overview and the report.
 */
export function cannotTellWords(c: { layer: string; why: string; evidence: readonly string[] }): string {
  const evidence = c.evidence.length > 0 ? `; the evidence there is: ${c.evidence.join('; ')}` : '; there is no other evidence';
  return `cannot tell on this driver whether TRIM reached ${c.layer}: ${c.why}${evidence}`;
}
