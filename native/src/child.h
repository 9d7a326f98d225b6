// Children the worker starts (tar, pkexec) die with it: a run that was killed must not go on
// writing through a child, nor leave one writing into a folder the next run sweeps.
#ifndef DD_CHILD_H
#define DD_CHILD_H

#include <sys/types.h>

typedef struct {
  int from, to;  // dup2(from, to) in the child
} fd_map_t;

typedef struct {
  int cwd_fd;         // the child's working folder, from a descriptor (no path resolved again); -1: ours
  const fd_map_t *fds;
  unsigned nfds;
} child_opts_t;

// In a child right after fork: SIGKILL when `parent` dies, and _exit(127) if it died before the
// request took effect (then no signal would ever come). Async-signal-safe.
void child_tie_to(pid_t parent);

// fork + child_tie_to + exec of `file` (PATH searched). Returns 0 and *pid, or an errno (an exec
// failure included: reported back through a close-on-exec pipe).
int child_spawn(pid_t *pid, const char *file, char *const argv[], const child_opts_t *o);

// The worker itself: SIGTERM when the process that started it dies. The app passes its pid in
// DISKDELTA_PARENT_PID, so a parent that died before this call is noticed too (SIGTERM at once).
void worker_tie_to_parent(void);

#endif
