// How the dm-crypt lab's guests run the project's Node, and what happens when it dies of a
// signal there (e2e/dm-crypt-lab.test.ts): each death named, only the known one outside the
// project run once more. Shell text for the guest's scripts; tested on the host by
// lab-node-death.test.ts.
import { join } from 'node:path';

/**
 * The one Node of the guest's steps: the project's Node 24 started directly, not through the bin's
 * wrapper, which the host's Node 20 (first on the guest's PATH) would run and which would start
 * Node 24 as its child — two V8s per step, and a death of either reported as the step's.
 */
export function guestDiskdelta(repo: string): string {
  return `${join(repo, 'node_modules', 'node', 'bin', 'node')} ${join(repo, 'node_modules', 'diskdelta-cli', 'diskdelta.js')}`;
}

/**
 * Shell: `name_node_death RC STDERR KMSG_FROM STEP` writes to node-deaths.txt what died (the
 * guest's Node 24), of which signal, V8's fatal message from the step's stderr, the guest kernel's
 * line about the fault (from dmesg line KMSG_FROM on: the faulting address and whether it was in
 * the node binary or in JIT code), and the cause when it is the known one; it succeeds only then.
 *
 * The known cause, outside the project: under QEMU 7.2's TCG emulation (no KVM here), Node 24's
 * V8 fails its JIT-page bookkeeping ("Check failed: it->second.Size() > offset", V8's
 * ThreadIsolation, SIGTRAP: the same family as V8's "jit_page" CHECKs reported on real hardware
 * with WebAssembly code churn, e.g. nodejs/node#64500; type stripping runs swc as WebAssembly in
 * every start of the CLI) or segfaults; seen in CI in steps that pass in every other boot, with
 * PKU on and off (-cpu max,pku=off did not stop it). The project runs no native code inside Node
 * (the worker is its own process, with its own exit status), so a SIGSEGV or that SIGTRAP of
 * Node is the runtime's or the emulator's. Every other death is not: a SIGABRT or SIGTRAP with
 * V8's out-of-memory or any other message, SIGBUS, SIGKILL (the guest's OOM killer). V8 crashes
 * with int3 then ud2: since the CLI handles SIGTRAP as a stop (bin/signals.js), its handler takes
 * the int3 and the ud2 kills with SIGILL, so after V8's JIT-page message SIGILL is that death too.
 */
export const NAME_NODE_DEATH = `
name_node_death() {
  rc=$1; err=$2; from=$3; step=$4
  sig=SIG$(kill -l $((rc - 128)) 2> /dev/null || echo $((rc - 128)))
  v8=$({ grep -m1 'Check failed' "$err" || grep -m1 -E 'Fatal error|Fatal JavaScript|FATAL ERROR|out of memory' "$err"; } | sed 's/^[# ]*//')
  kmsg=$(dmesg | tail -n +$((from + 1)) | grep -m1 -E 'segfault at|traps:|general protection' | sed 's/^\\[[^]]*\\] *//')
  cause=
  case $sig in
    SIGTRAP | SIGILL) echo "$v8" | grep -q 'it->second.Size() > offset' && cause="V8's JIT-page bookkeeping check (ThreadIsolation) under QEMU TCG" ;;
    SIGSEGV) [ -z "$v8" ] && cause="V8 segfault under QEMU TCG (Node runs no native code of the project)" ;;
  esac
  verdict="no known cause, not run again"; [ -n "$cause" ] && verdict="known cause: $cause"
  echo "Node 24 died of $sig (exit $rc), $step; V8: \${v8:-said nothing}; guest kernel: \${kmsg:-said nothing}; $verdict" >> node-deaths.txt
  [ -n "$cause" ]
}
`;

/**
 * How many times a step whose Node died of the known cause is started in all. Two were not
 * enough: CI once saw one `write-volume` sample of the burst-count lab segfault twice in a row
 * (the other seven Node starts of that boot ran), failing a lab whose truth it never reached.
 */
export const KNOWN_DEATH_ATTEMPTS = 3;

/**
 * Shell: `again_if_node_died CMD…` runs CMD, and again (up to KNOWN_DEATH_ATTEMPTS in all) only
 * when the guest's Node died of a known cause outside the project (`name_node_death`). Every
 * death, known or not, is named in node-deaths.txt (printed with the figures by `checksOf`):
 * which Node, which signal, what V8 and the guest's kernel said about it, and the known cause or
 * "no known cause". The last attempt's death, or any death of another kind, ends the step with
 * its exit status, so its own check fails: a crash of the project's doing is never run again.
 */
export const AGAIN_IF_NODE_DIED = `
${NAME_NODE_DEATH}
again_if_node_died() {
  for attempt in $(seq ${KNOWN_DEATH_ATTEMPTS}); do
    kmsg_from=$(dmesg | wc -l)
    "$@" 2> /tmp/step.err; rc=$?
    cat /tmp/step.err >&2
    [ $rc -gt 128 ] && [ $rc -lt 160 ] || break
    name_node_death $rc /tmp/step.err $kmsg_from "attempt $attempt of: $*" || break
    [ $attempt -lt ${KNOWN_DEATH_ATTEMPTS} ] && echo "  run once more" >> node-deaths.txt
  done
  return $rc
}
`;
