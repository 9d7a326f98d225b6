// The one privileged step of the access recorder (issue 30 item 2): a fanotify group with a
// filesystem-wide mark (FAN_MARK_FILESYSTEM needs CAP_SYS_ADMIN). The helper makes it for a
// user and passes the descriptor back; a worker run as root makes it itself. Either way the
// events are then read by the user's own process: the kernel opens each event's file with the
// credentials of the process that reads the group (not of the one that made it), so the
// recorder reaches only the files its user may open. Linked by both binaries.
#ifndef DD_FANOTIFY_GROUP_H
#define DD_FANOTIFY_GROUP_H

#include <stddef.h>

// What is marked: open, read and modify of files (never folders), notification only (nothing is
// ever blocked or asked). An event whose file the reader may not open comes with the error in
// place of a descriptor where the kernel can say so (FAN_REPORT_FD_ERROR, Linux 6.13+).
#define FANOTIFY_RECORD_MASK (FAN_OPEN | FAN_ACCESS | FAN_MODIFY)

// Opens the group and marks the filesystem `dirfd` lies on. Returns the group's descriptor
// (non-blocking, close-on-exec), or -1 with why filled (errno kept): EPERM without
// CAP_SYS_ADMIN, EINVAL/ENOSYS where the kernel has no fanotify or no filesystem marks,
// EXDEV on a filesystem that cannot be marked whole (a btrfs subvolume, overlayfs…).
int fanotify_group_open(int dirfd, int *fd_error_reported, char *why, size_t whylen);

#endif
