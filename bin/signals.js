// The signals that end a DiskDelta command cleanly (the run stops, the worker removes its test
// file, exit 7), shared by the launcher (bin/diskdelta.js, which passes each on to the real CLI
// it re-runs under Node 24) and the commands (electron/cli/signals.ts). Plain JavaScript: the
// launcher reads it under an old Node that cannot run TypeScript.
//
// Every signal whose default action ends a process and that is safe to catch: Ctrl-C, kill,
// a closed terminal or SSH session, Ctrl-\, alarms and timers, CPU and file-size limits, the
// user signals (SIGUSR1 would otherwise open Node's inspector).
// Not here, and why: SIGPIPE, because Node ignores it (a write to a closed pipe or socket is an
// EPIPE error instead), so it ends neither the launcher nor a command; a handler for it would
// make every write to a client that went away a signal, and stop `serve` (soak:serve saw that).
// SIGKILL and SIGSTOP cannot be caught; SIGSEGV, SIGBUS, SIGFPE and SIGILL
// are faults, after which no handler may run; Node cannot catch the real-time signals. Whatever
// of those ends the launcher, the real CLI notices that its launcher is gone (diskdelta.js).
export const STOP_SIGNALS = Object.freeze([
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGTERM',
  'SIGALRM',
  'SIGUSR1',
  'SIGUSR2',
  'SIGVTALRM',
  'SIGPROF',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGIO',
  'SIGPWR',
  'SIGSTKFLT',
  'SIGTRAP',
  'SIGABRT',
  'SIGSYS',
]);
