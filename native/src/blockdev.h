// Opening a block device read-only, shared by the worker and the privileged helper (both link
// blockdev.c): the one place that decides how a device is opened and what counts as one.
#ifndef DD_BLOCKDEV_H
#define DD_BLOCKDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
  uint64_t bytes;   // device size
  int sector;       // logical block size (BLKSSZGET)
  dev_t rdev;       // major:minor
} blockdev_info_t;

// What went wrong, so each caller can pick its own exit code and words.
typedef enum {
  BLOCKDEV_OK = 0,
  BLOCKDEV_MISSING,       // the path is not there (or the device went away)
  BLOCKDEV_SYMLINK,       // the last component is a symbolic link
  BLOCKDEV_NOT_BLOCK,     // a regular file, a folder, a character device, a FIFO …
  BLOCKDEV_WRITABLE_FD,   // an inherited descriptor that is open for writing
  BLOCKDEV_DENIED,        // EACCES / EPERM
  BLOCKDEV_FAILED,        // any other error (errno kept in the reason)
} blockdev_status_t;

// Opens PATH read-only as a block device: first O_PATH|O_NOFOLLOW (nothing is opened for I/O
// yet, so a FIFO cannot block and a terminal cannot become ours), fstat must say block device,
// then the very same inode is reopened through /proc/self/fd with O_RDONLY|O_CLOEXEC|O_NOCTTY
// (plus O_DIRECT when direct). Never writable: there is no flag to ask for it.
// Returns the descriptor, or -1 with *status and a sentence in why.
int blockdev_open_ro(const char *path, int direct, blockdev_info_t *info, blockdev_status_t *status, char *why,
                     size_t whylen);

// Checks a descriptor handed in by someone else (--fd N, the helper's reply): a block device,
// open read-only. Fills info. Returns 0, or -1 with *status and why.
int blockdev_check_fd(int fd, blockdev_info_t *info, blockdev_status_t *status, char *why, size_t whylen);

#endif
