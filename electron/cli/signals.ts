// The signals that stop a command cleanly: every catchable one whose default would end the
// process (bin/signals.js says which and why). bin/diskdelta.js forwards the same list when it
// re-runs itself under Node 24, and ends the real CLI when it dies of any other.
export { STOP_SIGNALS } from '../../bin/signals.js';
