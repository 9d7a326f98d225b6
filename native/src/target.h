// The thing under test: a test file the worker creates in a folder (and always removes),
// or a block device opened read-only.
#ifndef DD_TARGET_H
#define DD_TARGET_H

#include <limits.h>
#include <stdint.h>

#include "testfile-name.h"
// Names of the throwaway encryption devices (the only block devices ever written).
#define THROWAWAY_DM_PREFIX "diskdelta-crypt-"
#define THROWAWAY_FILE_PREFIX ".diskdelta-crypt-"

typedef struct {
  const char *path;          // as given on the command line
  int is_blockdev;
  int fd;
  int dir_fd;                // the target folder (O_PATH), which the test file is made and removed in
  int direct;                // opened with O_DIRECT
  int owns_file;             // created here: remove on exit, error and signal
  char file_path[PATH_MAX];  // the test file, empty for a block device
  uint64_t size;             // bytes the tests may touch
  unsigned align;            // buffer and offset alignment for O_DIRECT
  unsigned min_direct;       // the smallest O_DIRECT transfer the target takes (its logical block); 0: not known
  char fs_type[32];          // "ext4", "tmpfs", … (best effort, for messages)
} target_t;

typedef struct {
  uint64_t size;
  int buffered;          // allow page-cache I/O (warned)
  int needs_write;       // some job writes
  const char *reuse;     // --file: a file made by `prepare`, kept afterwards
  int fd;                // --fd: a read-only descriptor of the block device, 0 if none
  const char *helper;    // --helper: have pkexec + this helper open the block device
  const char *fd_from;   // --fd-from: fetch the descriptor from a `hold` process's socket
  int device_only;       // a block device or nothing: refused before anything is opened or made
} target_request_t;

// Opens or creates the target. Returns 0 or an EXIT_* code after emitting an error line.
int target_open(target_t *t, const char *path, const target_request_t *req);
// The smallest O_DIRECT read the target accepts, 512 … 4096 bytes (0 if none or not O_DIRECT):
// asked of the target itself, since a file's filesystem and the disk beneath both decide it.
unsigned target_probe_min_direct(const target_t *t);
// Fills a fresh test file with incompressible data. progress(done, total) is called often.
int target_fill(target_t *t, void (*progress)(uint64_t done, uint64_t total));
// Closes the target and removes the test file if this process created it. Idempotent.
void target_close(target_t *t);
// `prepare`: the file outlives this process (the caller removes it).
void target_keep_file(target_t *t);
// Removes what killed runs of this user left in dir: only names DiskDelta makes
// (.diskdelta-PID-TAG.tmp), owned by this user, in the shape it makes them (a file: 0600, one
// link; a folder: 0700 holding its marker), whose maker's lock is free. Anything else stays.
// What cannot be removed is said (a warning). Returns how many were removed.
int sweep_stale_files(const char *dir);
// The name of a statfs f_type ("ext4", "tmpfs"…), or "unknown".
const char *fs_name(long type);
// Called from the signal handler: unlink the test file now (async-signal-safe).
void target_unlink_from_signal(void);

#endif
