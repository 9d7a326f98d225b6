// A file's identity as the access recorder keeps it: a keyed hash (SipHash-2-4) of the
// filesystem's id and the file's handle (which carries the inode's generation, so a reused inode
// number is another file). Without the key and the filesystem a hash names nothing. Linked by
// both binaries: the worker hashes the files of its own (root's) recording, the helper those of
// a recording it makes for a user (access-feed.h), under the key of the user's trace, so a file
// hashes alike either way and across sessions.
#ifndef DD_FILE_IDENTITY_H
#define DD_FILE_IDENTITY_H

#include <stdint.h>
#include <sys/stat.h>

#define FILE_IDENTITY_KEY_BYTES 16

// The identity of the open file fd (st: its fstat). Never 0.
uint64_t file_identity(const uint8_t key[FILE_IDENTITY_KEY_BYTES], const uint8_t fsid[8], int fd, const struct stat *st);

#endif
