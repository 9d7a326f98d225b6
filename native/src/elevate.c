#include "elevate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdpass.h"
#include "helper-protocol.h"
#include "ndjson.h"
#include "util.h"

// The child could not exec pkexec at all (not installed): an exit status pkexec never uses.
#define EXEC_FAILED 125

extern volatile sig_atomic_t g_stop;

static void emit_helper_line(const char *state, pid_t pid, int status) {
  jbuf_t b;
  jb_begin(&b, "helper");
  jb_str(&b, "state", state);
  jb_i64(&b, "pid", pid);
  if (strcmp(state, "exited") == 0) {
    if (WIFEXITED(status)) jb_i64(&b, "exit_code", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) jb_i64(&b, "signal", WTERMSIG(status));
  }
  jb_end_emit(&b);
}

// The line of what pkexec and the helper said that explains the failure: the last one that
// names an error (pkexec adds "This incident has been reported." after it), else the last.
static const char *telling_line(char *text) {
  const char *pick = NULL, *last = NULL;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (!*line) continue;
    last = line;
    if (strstr(line, "Error") || strstr(line, "diskdelta-helper:")) pick = line;
  }
  return pick ? pick : last ? last : "";
}

// Why no descriptor came: one code and message per failure, and the worker's exit code.
static int explain(const char *helper, const char *device, pid_t pid, int status, char *said) {
  // Classified on the whole text first: telling_line cuts it into lines.
  int no_agent = strstr(said, "authentication agent") != NULL, denied = strstr(said, "Not authorized") != NULL;
  int not_found = strstr(said, "Error accessing") || strstr(said, "No such file");
  const char *quote = telling_line(said);
  if (WIFSIGNALED(status))
    return emit_failure(FAIL_HELPER_KILLED,
                        "the privileged helper (pid %d) was killed by signal %d before it passed %s back; nothing was "
                        "measured. Run again", (int)pid, WTERMSIG(status), device);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  switch (code) {
    case EXEC_FAILED:
      return emit_failure(FAIL_PKEXEC_MISSING,
                          "pkexec is not installed, so %s cannot be opened for you: install it (Debian/Ubuntu: sudo apt-get "
                          "install pkexec), or run as root (%s)", device, quote);
    case 126:
      return emit_failure(FAIL_ELEVATE_DISMISSED, "the authentication to read %s was dismissed; nothing was measured", device);
    case 127:
      if (no_agent)
        return emit_failure(FAIL_ELEVATE_NO_AGENT,
                            "no polkit authentication agent could ask for the password to read %s (no desktop agent running "
                            "and no terminal). Run from a terminal, start your desktop's polkit agent, or run as root "
                            "(pkexec: %s)", device, quote);
      if (denied)
        return emit_failure(FAIL_ELEVATE_DENIED, "polkit did not authorise reading %s (pkexec: %s); nothing was measured",
                            device, quote);
      if (not_found)
        return emit_failure(FAIL_HELPER_MISSING,
                            "the privileged helper %s is not installed: run `sudo npx diskdelta helper install` (pkexec: %s)",
                            helper, quote);
      return emit_failure(FAIL_ELEVATE_FAILED, "pkexec could not run the helper for %s: %s", device, quote);
    case HX_REFUSED:
      return emit_failure(FAIL_HELPER_REFUSED, "the privileged helper refused %s: %s", device, quote);
    case HX_VANISHED:
      return emit_failure(FAIL_DEVICE_VANISHED, "%s went away before it could be opened (unplugged or detached?): %s", device, quote);
    default:
      return emit_failure(FAIL_HELPER_FAILED, "the privileged helper could not open %s (exit %d): %s", device, code, quote);
  }
}

int elevate_open_device(const char *helper, const char *device, int *fd) {
  *fd = -1;
  int sv[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    return emit_failure(FAIL_INTERNAL, "cannot create the socket for the helper: %s", strerror(errno));
  }
  pid_t pid = fork();
  if (pid < 0) {
    return emit_failure(FAIL_INTERNAL, "cannot start pkexec: %s", strerror(errno));
  }
  if (pid == 0) {
    // pkexec closes every descriptor above 2, so the socket is the helper's stdout.
    dup2(sv[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    execlp("pkexec", "pkexec", helper, "open-ro", device, (char *)NULL);
    dprintf(STDERR_FILENO, "cannot run pkexec: %s\n", strerror(errno));
    _exit(EXEC_FAILED);
  }
  close(sv[1]);
  close(err[1]);
  emit_helper_line("started", pid, 0);

  char said[4096] = "";
  size_t said_len = 0;
  char reply[512];
  int sock_open = 1, err_open = 1, killed = 0;
  // Authentication may take as long as the user needs; a stop request still ends it.
  while (sock_open || err_open) {
    if (g_stop && !killed) {
      kill(pid, SIGTERM);  // possible while pkexec waits for the user; the helper itself is root's
      killed = 1;
    }
    struct pollfd p[2] = {{.fd = sock_open ? sv[0] : -1, .events = POLLIN}, {.fd = err_open ? err[0] : -1, .events = POLLIN}};
    int n = poll(p, 2, 200);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    if (p[0].revents) {
      int got = -1;
      ssize_t r = fdpass_recv(sv[0], &got, reply, sizeof reply);
      if (got >= 0) {
        if (*fd >= 0) close(got);
        else *fd = got;
      }
      if (r <= 0) sock_open = 0;
    }
    if (p[1].revents) {
      ssize_t r = read(err[0], said + said_len, sizeof said - 1 - said_len);
      if (r > 0) {
        said_len += (size_t)r;
        said[said_len] = 0;
        if (said_len == sizeof said - 1) said_len = 0;  // keep the tail: it explains the failure
      } else if (r == 0 || errno != EINTR) err_open = 0;
    }
  }
  close(sv[0]);
  close(err[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  emit_helper_line("exited", pid, status);
  if (said[0]) logf_stderr("%s", said);
  if (*fd >= 0) return 0;
  if (g_stop) return EXIT_INTERRUPTED;
  return explain(helper, device, pid, status, said);
}

static int unix_address(const char *path, struct sockaddr_un *addr) {
  memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr->sun_path) return -1;
  memcpy(addr->sun_path, path, strlen(path));
  return 0;
}

int elevate_hold(int fd, const char *sock_path) {
  struct sockaddr_un addr;
  int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0 || unix_address(sock_path, &addr) != 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      listen(listener, 8) != 0) {
    return emit_failure(FAIL_USAGE, "cannot listen on %s: %s", sock_path, strerror(errno));
  }
  jbuf_t b;
  jb_begin(&b, "holding");
  jb_str(&b, "socket", sock_path);
  jb_end_emit(&b);
  int rc = 0;
  while (!g_stop) {
    struct pollfd p[2] = {{.fd = listener, .events = POLLIN}, {.fd = STDIN_FILENO, .events = POLLIN}};
    if (poll(p, 2, 500) < 0 && errno != EINTR) break;
    if (p[1].revents) {
      char buf[64];
      if (read(STDIN_FILENO, buf, sizeof buf) <= 0) break;  // the app closed the session
    }
    if (!(p[0].revents & POLLIN)) continue;
    int conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (conn < 0) continue;
    // Only this user's processes get the descriptor (the folder is private too).
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == getuid()) fdpass_send(conn, fd, "fd\n");
    else emit_warning("hold-refused", "refused the descriptor to a process of another user");
    close(conn);
  }
  close(listener);
  unlink(sock_path);
  close(fd);
  return rc;
}

int elevate_fd_from(const char *sock_path, int *fd) {
  *fd = -1;
  struct sockaddr_un addr;
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  char text[16];
  if (s < 0 || unix_address(sock_path, &addr) != 0 || connect(s, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      fdpass_recv(s, fd, text, sizeof text) <= 0 || *fd < 0) {
    int e = errno;
    if (s >= 0) close(s);
    return emit_failure(FAIL_HOLDER_GONE, "the session's descriptor holder at %s did not answer (%s): open the device again",
                        sock_path, strerror(e));
  }
  close(s);
  return 0;
}
