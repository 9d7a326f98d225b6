#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void child_tie_to(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died between fork and prctl: the child was reparented already.
  if (getppid() != parent) _exit(127);
}

int child_spawn(pid_t *pid, const char *file, char *const argv[], const child_opts_t *o) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return errno;
  pid_t parent = getpid();
  pid_t p = fork();
  if (p < 0) {
    int e = errno;
    close(report[0]), close(report[1]);
    return e;
  }
  if (p == 0) {
    child_tie_to(parent);
    // The report pipe out of the way of the descriptors mapped below (a low one could be a target).
    int report_fd = fcntl(report[1], F_DUPFD_CLOEXEC, 10);
    if (report_fd < 0) report_fd = report[1];
    // Signals the worker ignores or blocks are the child's defaults again (exec keeps SIG_IGN).
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    int e = 0;
    if (o && o->cwd_fd >= 0 && fchdir(o->cwd_fd) != 0) e = errno;
    for (unsigned i = 0; !e && o && i < o->nfds; i++)
      // dup2 onto itself keeps close-on-exec: clear it by hand then.
      if (o->fds[i].from == o->fds[i].to ? fcntl(o->fds[i].to, F_SETFD, 0) != 0 : dup2(o->fds[i].from, o->fds[i].to) < 0) e = errno;
    if (!e) {
      execvpe(file, argv, environ);
      e = errno;
    }
    ssize_t ignored = write(report_fd, &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  close(report[1]);
  int e = 0;
  ssize_t n;
  while ((n = read(report[0], &e, sizeof e)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  if (n == (ssize_t)sizeof e && e) {
    while (waitpid(p, NULL, 0) < 0 && errno == EINTR) {
    }
    return e;
  }
  *pid = p;
  return 0;
}

void worker_tie_to_parent(void) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  const char *parent = getenv("DISKDELTA_PARENT_PID");
  char *end = NULL;
  long want = parent ? strtol(parent, &end, 10) : 0;
  // Started by the app, and the app is gone already: stop as if it had died a moment later.
  if (parent && end && !*end && want > 0 && getppid() != (pid_t)want) raise(SIGTERM);
}
