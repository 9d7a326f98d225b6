// The signals that stop a command cleanly: Ctrl-C, kill, and a closed terminal or SSH session.
// bin/diskdelta.js forwards the same three when it re-runs itself under Node 24.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
