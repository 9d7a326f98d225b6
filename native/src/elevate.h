// Getting a raw device opened by the privileged helper: the worker runs
// `pkexec HELPER open-ro DEVICE` with a Unix socket as the helper's stdout and receives the
// read-only descriptor over it (SCM_RIGHTS). The helper exits at once; the worker measures on
// the descriptor as the user, so an authorisation that expires mid-run cannot stop it.
#ifndef DD_ELEVATE_H
#define DD_ELEVATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// Returns 0 with *fd set, or an EXIT_* code after emitting an error line whose code names the
// failure: pkexec-missing, elevate-no-agent, elevate-dismissed, elevate-denied, helper-missing,
// helper-refused, device-vanished, helper-killed, helper-failed. Emits a "helper" line when
// the helper starts (its pid) and when it has exited.
int elevate_open_device(const char *helper, const char *device, int *fd);

// `crypt-hold`: `pkexec HELPER crypt-setup FILE CIPHER KEY_BITS SECTOR_BYTES FLAGS` (crypt holds
// the last four, space-separated) makes a read-only loop over DiskDelta's own FILE and a
// read-only dm-crypt mapping on it, and passes back both descriptors: fds[0] and devices[0] the
// mapping, fds[1] and devices[1] the loop beneath. The kernel removes both once the last of
// these descriptors closes, so no root step tears them down. Returns 0, or an EXIT_* code after
// an error line (the codes of elevate_open_device).
int elevate_crypt_setup(const char *helper, const char *file, const char *crypt, int fds[2], char devices[2][64]);

// `record`: `pkexec HELPER record-accesses FOLDER` records the file accesses on FOLDER's whole
// filesystem and passes back only (hash, bytes, time, kinds) records (access-feed.h) on
// feed->sock (non-blocking), hashed under `key` (sent to it first), until the worker shuts down
// its side of the socket. Returns 0 once the helper said it records, or an EXIT_* code after an
// error line (the codes of elevate_open_device).
typedef struct {
  pid_t pid;
  int sock, err;
} helper_feed_t;
int elevate_start_records(const char *helper, const char *folder, const uint8_t key[16], helper_feed_t *feed);
// Closes the feed and waits (at most 10 s) for the helper to exit; emits its "exited" line and
// passes on what it said. Returns 0 when it ended cleanly, else -1 with why filled.
int elevate_end_records(helper_feed_t *feed, char *why, size_t whylen);

// `hold`: keeps the descriptor for a session (the app asks once per device): serves it over a
// Unix socket at sock_path to processes of the same user (SO_PEERCRED), until stdin closes or a
// signal comes. Emits a "holding" line once it listens. Returns the exit code.
int elevate_hold(int fd, const char *sock_path);
// The same for up to ELEVATE_MAX_HELD descriptors, each on its own socket; the "holding" line
// names the first socket (and device), and the second as raw_socket (raw_device). Closes fds.
#define ELEVATE_MAX_HELD 2
int elevate_hold_many(const int *fds, const char *const *sock_paths, const char *const *devices, int count);
// `--fd-from PATH`: fetches the descriptor from a holder. Returns 0 with *fd, or an EXIT_* code
// after emitting an error line (code holder-gone).
int elevate_fd_from(const char *sock_path, int *fd);

#endif
