#include "elevate.h"

#include <errno.h>
#include <limits.h>
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

#include "access-feed.h"
#include "child.h"
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

// What the helper is asked for, in the words each message needs: "read /dev/sdb" (to …),
// "reading /dev/sdb" (…ing), "/dev/sdb" (what it passes back).
typedef struct {
  const char *to, *ing, *object;
} ask_t;

// Why no descriptor came: one code and message per failure, and the worker's exit code.
static int explain(const char *helper, const ask_t *ask, pid_t pid, int status, char *said) {
  // Classified on the whole text first: telling_line cuts it into lines.
  int no_agent = strstr(said, "authentication agent") != NULL, denied = strstr(said, "Not authorized") != NULL;
  int not_found = strstr(said, "Error accessing") || strstr(said, "No such file");
  const char *quote = telling_line(said);
  if (WIFSIGNALED(status))
    return emit_failure(FAIL_HELPER_KILLED,
                        "the privileged helper (pid %d) was killed by signal %d before it passed %s back; nothing was "
                        "measured. Run again", (int)pid, WTERMSIG(status), ask->object);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  switch (code) {
    case EXEC_FAILED:
      return emit_failure(FAIL_PKEXEC_MISSING,
                          "pkexec is not installed, so DiskDelta cannot %s for you: install it (Debian/Ubuntu: sudo apt-get "
                          "install pkexec), or run as root (%s)", ask->to, quote);
    case 126:
      return emit_failure(FAIL_ELEVATE_DISMISSED, "the authentication to %s was dismissed; nothing was measured", ask->to);
    case 127:
      if (no_agent)
        return emit_failure(FAIL_ELEVATE_NO_AGENT,
                            "no polkit authentication agent could ask for the password to %s (no desktop agent running "
                            "and no terminal). Run from a terminal, start your desktop's polkit agent, or run as root "
                            "(pkexec: %s)", ask->to, quote);
      if (denied)
        return emit_failure(FAIL_ELEVATE_DENIED, "polkit did not authorise %s (pkexec: %s); nothing was measured", ask->ing, quote);
      if (not_found)
        return emit_failure(FAIL_HELPER_MISSING,
                            "the privileged helper %s is not installed: run `sudo npx diskdelta helper install` (pkexec: %s)",
                            helper, quote);
      return emit_failure(FAIL_ELEVATE_FAILED, "pkexec could not run the helper to %s: %s", ask->to, quote);
    case HX_REFUSED:
      return emit_failure(FAIL_HELPER_REFUSED, "the privileged helper refused %s: %s", ask->ing, quote);
    case HX_VANISHED:
      return emit_failure(FAIL_DEVICE_VANISHED, "%s went away before it could be opened (unplugged or detached?): %s", ask->object,
                          quote);
    default:
      return emit_failure(FAIL_HELPER_FAILED, "the privileged helper could not %s (exit %d): %s", ask->to, code, quote);
  }
}

typedef struct {
  pid_t pid;
  int sock, err;  // the helper's stdout (a Unix socket) and stderr (a pipe)
} spawned_t;

// Starts `pkexec HELPER ARGS…` with a Unix socket as the helper's stdout. Returns 0, or an
// EXIT_* code after an error line.
static int spawn_helper(const char *helper, const char *const *args, spawned_t *h) {
  int sv[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return emit_failure(FAIL_INTERNAL, "cannot create the socket for the helper: %s", strerror(errno));
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    int e = errno;
    close(sv[0]), close(sv[1]);
    return emit_failure(FAIL_INTERNAL, "cannot create the socket for the helper: %s", strerror(e));
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(sv[0]), close(sv[1]), close(err[0]), close(err[1]);
    return emit_failure(FAIL_INTERNAL, "cannot start pkexec: %s", strerror(e));
  }
  if (pid == 0) {
    // (pkexec is set-uid: exec clears the death signal again, but until then a child of a dead
    // worker does not go on to ask for a password.)
    child_tie_to(parent);
    // pkexec closes every descriptor above 2, so the socket is the helper's stdout.
    dup2(sv[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    const char *argv[10] = {"pkexec", helper};
    for (int i = 0; args[i] && i < 7; i++) argv[i + 2] = args[i];
    execvp("pkexec", (char *const *)argv);
    dprintf(STDERR_FILENO, "cannot run pkexec: %s\n", strerror(errno));
    _exit(EXEC_FAILED);
  }
  close(sv[1]);
  close(err[1]);
  emit_helper_line("started", pid, 0);
  *h = (spawned_t){.pid = pid, .sock = sv[0], .err = err[0]};
  return 0;
}

// What pkexec and the helper said on stderr, appended to said (its tail kept). Returns 1 when it
// read some, -1 when there is nothing to read now, 0 at the pipe's end.
static int read_said(int fd, char said[4096], size_t *len) {
  ssize_t r = read(fd, said + *len, 4096 - 1 - *len);
  if (r > 0) {
    *len += (size_t)r;
    said[*len] = 0;
    if (*len == 4096 - 1) *len = 0;  // keep the tail: it explains the failure
    return 1;
  }
  return r < 0 && (errno == EINTR || errno == EAGAIN) ? -1 : 0;
}

// Runs `pkexec HELPER ARGS…` with a Unix socket as the helper's stdout and receives up to `max`
// descriptors over it, each with its reply line (replies[i], NUL-terminated). Returns 0 when
// exactly `max` came, else an EXIT_* code after an error line (any that came are closed).
static int call_helper(const char *helper, const char *const *args, const ask_t *ask, int *fds, char (*replies)[256], int max) {
  int received = 0;
  for (int i = 0; i < max; i++) fds[i] = -1;
  spawned_t h;
  int rc = spawn_helper(helper, args, &h);
  if (rc) return rc;

  char said[4096] = "";
  size_t said_len = 0;
  char reply[256];
  int sock_open = 1, err_open = 1, killed = 0;
  // Authentication may take as long as the user needs; a stop request still ends it.
  while (sock_open || err_open) {
    if (g_stop && !killed) {
      kill(h.pid, SIGTERM);  // possible while pkexec waits for the user; the helper itself is root's
      killed = 1;
    }
    struct pollfd p[2] = {{.fd = sock_open ? h.sock : -1, .events = POLLIN}, {.fd = err_open ? h.err : -1, .events = POLLIN}};
    int n = poll(p, 2, 200);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    if (p[0].revents) {
      int got = -1;
      ssize_t r = fdpass_recv(h.sock, &got, reply, sizeof reply);
      if (got >= 0) {
        if (received < max) {
          snprintf(replies[received], sizeof replies[received], "%s", reply);
          fds[received++] = got;
        } else close(got);
      }
      if (r <= 0) sock_open = 0;
    }
    if (p[1].revents) err_open = read_said(h.err, said, &said_len) != 0;
  }
  close(h.sock);
  close(h.err);
  int status = 0;
  while (waitpid(h.pid, &status, 0) < 0 && errno == EINTR) {}
  emit_helper_line("exited", h.pid, status);
  if (said[0]) logf_stderr("%s", said);
  if (received == max) return 0;
  for (int i = 0; i < received; i++) close(fds[i]), fds[i] = -1;
  if (g_stop) return EXIT_INTERRUPTED;
  return explain(helper, ask, h.pid, status, said);
}

int elevate_open_device(const char *helper, const char *device, int *fd) {
  char to[96], ing[96], reply[1][256];
  snprintf(to, sizeof to, "read %s", device);
  snprintf(ing, sizeof ing, "reading %s", device);
  ask_t ask = {.to = to, .ing = ing, .object = device};
  const char *args[] = {"open-ro", device, NULL};
  return call_helper(helper, args, &ask, fd, reply, 1);
}

int elevate_start_records(const char *helper, const char *folder, const uint8_t key[FILE_IDENTITY_KEY_BYTES], helper_feed_t *feed) {
  char to[PATH_MAX + 64], ing[PATH_MAX + 64], object[PATH_MAX + 32];
  snprintf(to, sizeof to, "record the file accesses on the filesystem of %s", folder);
  snprintf(ing, sizeof ing, "recording the file accesses on the filesystem of %s", folder);
  snprintf(object, sizeof object, "the recording of %s", folder);
  ask_t ask = {.to = to, .ing = ing, .object = object};
  const char *args[] = {"record-accesses", folder, NULL};
  spawned_t h;
  int rc = spawn_helper(helper, args, &h);
  if (rc) return rc;
  // The key goes first: it waits in the socket until the helper, once authorised, reads it.
  if (send(h.sock, key, FILE_IDENTITY_KEY_BYTES, MSG_NOSIGNAL) != FILE_IDENTITY_KEY_BYTES) {
    int e = errno;
    kill(h.pid, SIGTERM);
    close(h.sock), close(h.err);
    while (waitpid(h.pid, NULL, 0) < 0 && errno == EINTR) {}
    return emit_failure(FAIL_INTERNAL, "cannot hand the helper the trace's key: %s", strerror(e));
  }
  char said[4096] = "", line[256];
  size_t said_len = 0, line_len = 0;
  int sock_open = 1, err_open = 1, ready = 0, killed = 0;
  // The ready line alone, a byte at a time: the records that follow it are the recorder's.
  while (!ready && (sock_open || err_open)) {
    if (g_stop && !killed) {
      kill(h.pid, SIGTERM);  // possible while pkexec waits for the user
      killed = 1;
    }
    struct pollfd p[2] = {{.fd = sock_open ? h.sock : -1, .events = POLLIN}, {.fd = err_open ? h.err : -1, .events = POLLIN}};
    int n = poll(p, 2, 200);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    if (p[0].revents) {
      char c;
      ssize_t r = recv(h.sock, &c, 1, 0);
      if (r == 1 && line_len < sizeof line - 1) {
        line[line_len++] = c;
        line[line_len] = 0;
        ready = c == '\n';
      } else if (r == 1 || r == 0 || (errno != EINTR && errno != EAGAIN)) sock_open = 0;
    }
    if (p[1].revents) err_open = read_said(h.err, said, &said_len) != 0;
  }
  if (ready && strcmp(line, ACCESS_FEED_READY) == 0) {
    fcntl(h.sock, F_SETFL, fcntl(h.sock, F_GETFL) | O_NONBLOCK);
    fcntl(h.err, F_SETFL, fcntl(h.err, F_GETFL) | O_NONBLOCK);
    *feed = (helper_feed_t){.pid = h.pid, .sock = h.sock, .err = h.err};
    return 0;
  }
  // No records will come: what the helper said explains why (it exits once its socket closes).
  close(h.sock);
  while (err_open) err_open = read_said(h.err, said, &said_len) != 0;
  close(h.err);
  int status = 0;
  while (waitpid(h.pid, &status, 0) < 0 && errno == EINTR) {}
  emit_helper_line("exited", h.pid, status);
  if (said[0]) logf_stderr("%s", said);
  if (g_stop) return EXIT_INTERRUPTED;
  if (ready)
    return emit_failure(FAIL_HELPER_FAILED, "the privileged helper %s answered '%.*s', not a recording: install the helper of this "
                        "DiskDelta (`sudo npx diskdelta helper install`)", helper, (int)strcspn(line, "\n"), line);
  return explain(helper, &ask, h.pid, status, said);
}

int elevate_end_records(helper_feed_t *feed, char *why, size_t whylen) {
  close(feed->sock);  // a helper still passing records on ends at its next write
  char said[4096] = "";
  size_t said_len = 0;
  int status = 0, done = 0;
  // The helper is root's: it cannot be signalled, only waited for, so the wait is bounded.
  for (int i = 0; i < 100 && !done; i++) {
    while (read_said(feed->err, said, &said_len) == 1) {}
    pid_t r = waitpid(feed->pid, &status, WNOHANG);
    done = r == feed->pid || (r < 0 && errno != EINTR);
    if (!done) usleep(100000);
  }
  while (read_said(feed->err, said, &said_len) == 1) {}
  close(feed->err);
  if (!done) {
    snprintf(why, whylen, "the privileged helper (pid %d) did not end within 10 s of the recording's end", (int)feed->pid);
    return -1;
  }
  emit_helper_line("exited", feed->pid, status);
  if (said[0]) logf_stderr("%s", said);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  const char *quote = telling_line(said);
  if (WIFSIGNALED(status)) snprintf(why, whylen, "the privileged helper was killed by signal %d", WTERMSIG(status));
  else snprintf(why, whylen, "the privileged helper ended with exit %d%s%s", WEXITSTATUS(status), *quote ? ": " : "", quote);
  return -1;
}

// The "device" of a helper's reply line, into out (empty when it has none).
static void reply_device(const char *reply, char *out, size_t outlen) {
  const char *at = strstr(reply, "\"device\":\"");
  out[0] = 0;
  if (!at) return;
  at += strlen("\"device\":\"");
  size_t n = strcspn(at, "\"");
  snprintf(out, outlen, "%.*s", (int)(n < outlen ? n : outlen - 1), at);
}

int elevate_crypt_setup(const char *helper, const char *file, const char *crypt, int fds[2], char devices[2][64]) {
  // CIPHER KEY_BITS SECTOR_BYTES FLAGS: passed on as four operands; the helper checks each.
  char copy[256], *words[5] = {0};
  snprintf(copy, sizeof copy, "%s", crypt);
  int n = 0;
  char *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w && n < 5; w = strtok_r(NULL, " ", &save)) words[n++] = w;
  if (n != 4) return emit_failure(FAIL_USAGE, "--crypt takes \"CIPHER KEY_BITS SECTOR_BYTES FLAGS\", got '%s'", crypt);
  char to[PATH_MAX + 64], ing[PATH_MAX + 64], object[PATH_MAX + 32], replies[2][256];
  snprintf(to, sizeof to, "set up a throwaway dm-crypt mapping over %s", file);
  snprintf(ing, sizeof ing, "a throwaway dm-crypt mapping over %s", file);
  snprintf(object, sizeof object, "the mapping over %s", file);
  ask_t ask = {.to = to, .ing = ing, .object = object};
  const char *args[] = {"crypt-setup", file, words[0], words[1], words[2], words[3], NULL};
  int rc = call_helper(helper, args, &ask, fds, replies, 2);
  if (rc) return rc;
  for (int i = 0; i < 2; i++) reply_device(replies[i], devices[i], 64);
  return 0;
}

static int unix_address(const char *path, struct sockaddr_un *addr) {
  memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr->sun_path) return -1;
  memcpy(addr->sun_path, path, strlen(path));
  return 0;
}

static int listen_at(const char *sock_path) {
  struct sockaddr_un addr;
  int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0 || unix_address(sock_path, &addr) != 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      listen(listener, 8) != 0) {
    if (listener >= 0) close(listener);
    return -1;
  }
  return listener;
}

int elevate_hold_many(const int *fds, const char *const *sock_paths, const char *const *devices, int count) {
  int listeners[ELEVATE_MAX_HELD];
  for (int i = 0; i < count; i++) {
    listeners[i] = listen_at(sock_paths[i]);
    if (listeners[i] < 0) {
      int e = errno;
      for (int j = 0; j < i; j++) close(listeners[j]), unlink(sock_paths[j]);
      for (int j = 0; j < count; j++) close(fds[j]);
      return emit_failure(FAIL_USAGE, "cannot listen on %s: %s", sock_paths[i], strerror(e));
    }
  }
  jbuf_t b;
  jb_begin(&b, "holding");
  jb_str(&b, "socket", sock_paths[0]);
  if (devices) jb_str(&b, "device", devices[0]);
  if (count > 1) {
    jb_str(&b, "raw_socket", sock_paths[1]);
    if (devices) jb_str(&b, "raw_device", devices[1]);
  }
  jb_end_emit(&b);
  while (!g_stop) {
    struct pollfd p[ELEVATE_MAX_HELD + 1];
    for (int i = 0; i < count; i++) p[i] = (struct pollfd){.fd = listeners[i], .events = POLLIN};
    p[count] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(p, (nfds_t)count + 1, 500) < 0 && errno != EINTR) break;
    if (p[count].revents) {
      char buf[64];
      if (read(STDIN_FILENO, buf, sizeof buf) <= 0) break;  // the app closed the session
    }
    for (int i = 0; i < count; i++) {
      if (!(p[i].revents & POLLIN)) continue;
      int conn = accept4(listeners[i], NULL, NULL, SOCK_CLOEXEC);
      if (conn < 0) continue;
      // Only this user's processes get the descriptor (the folder is private too).
      struct ucred cred;
      socklen_t len = sizeof cred;
      if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == getuid()) fdpass_send(conn, fds[i], "fd\n");
      else emit_warning("hold-refused", "refused the descriptor to a process of another user");
      close(conn);
    }
  }
  for (int i = 0; i < count; i++) {
    close(listeners[i]);
    unlink(sock_paths[i]);
    close(fds[i]);
  }
  return 0;
}

int elevate_hold(int fd, const char *sock_path) { return elevate_hold_many(&fd, &sock_path, NULL, 1); }

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
