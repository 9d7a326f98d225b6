// Getting a raw device opened by the privileged helper: the worker runs
// `pkexec HELPER open-ro DEVICE` with a Unix socket as the helper's stdout and receives the
// read-only descriptor over it (SCM_RIGHTS). The helper exits at once; the worker measures on
// the descriptor as the user, so an authorisation that expires mid-run cannot stop it.
#ifndef DD_ELEVATE_H
#define DD_ELEVATE_H

// Returns 0 with *fd set, or an EXIT_* code after emitting an error line whose code names the
// failure: pkexec-missing, elevate-no-agent, elevate-dismissed, elevate-denied, helper-missing,
// helper-refused, device-vanished, helper-killed, helper-failed. Emits a "helper" line when
// the helper starts (its pid) and when it has exited.
int elevate_open_device(const char *helper, const char *device, int *fd);

// `hold`: keeps the descriptor for a session (the app asks once per device): serves it over a
// Unix socket at sock_path to processes of the same user (SO_PEERCRED), until stdin closes or a
// signal comes. Emits a "holding" line once it listens. Returns the exit code.
int elevate_hold(int fd, const char *sock_path);
// `--fd-from PATH`: fetches the descriptor from a holder. Returns 0 with *fd, or an EXIT_* code
// after emitting an error line (code holder-gone).
int elevate_fd_from(const char *sock_path, int *fd);

#endif
