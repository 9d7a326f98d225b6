// The helper's side of a recording made for a user who is not root (verb record-accesses): the
// helper, as root, holds the fanotify group (a filesystem-wide mark needs CAP_SYS_ADMIN), reads
// its events itself and passes the user only fixed records of (hash, bytes, time, kinds), over
// the socket it was started with. Never a name, a path, a pid, a handle, a descriptor or an
// event mask beyond open/read/modify: a group handed to the user would give them every user's
// file names and writers' pids (issue 38 item 2), and a descriptors group every file itself.
//
// A file is passed only when the user may look it up themselves: the helper acts with the
// user's filesystem identity (uid, gid, groups) for the whole recording, and stats the path the
// kernel knows for the event's file: when that finds the very same inode, the user could have
// stat'ed it too, so its allocated bytes and hash tell them nothing they could not see. Of a file
// in a folder closed to them nothing at all is passed.
//
// The wire (a Unix stream socket, the helper's stdout): the worker first writes the trace's
// 16-byte key; the helper answers ACCESS_FEED_READY once its group is made, then records. The
// worker ends the recording by shutting down its sending side: the helper reads what the kernel
// still queued, passes it on, and exits. SIGTERM ends it the same way; SIGINT and SIGHUP (the
// user's terminal) are the worker's to act on.
#ifndef DD_ACCESS_FEED_H
#define DD_ACCESS_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "file-identity.h"

typedef struct {
  uint64_t hash;     // file_identity() under the trace's key; 0 only in a "lost" record
  int64_t bytes;     // allocated bytes (st_blocks * 512)
  int64_t t_ms;      // when the helper read the event (wall clock, ms)
  uint32_t kinds;    // FAN_OPEN | FAN_ACCESS | FAN_MODIFY, or FAN_Q_OVERFLOW: the kernel's queue overflowed
  uint32_t reserved; // 0
} access_feed_record_t;

_Static_assert(sizeof(access_feed_record_t) == 32, "one record is 32 bytes on the wire");

#define ACCESS_FEED_READY "{\"records\":\"hash,bytes,t_ms,kinds\"}\n"

// Reads the key the worker sends first: exactly FILE_IDENTITY_KEY_BYTES within timeout_ms.
// Returns 0, or -1 (why filled).
int access_feed_read_key(int sock, uint8_t key[FILE_IDENTITY_KEY_BYTES], int timeout_ms, char *why, size_t whylen);

// Passes the group's events on as records until the worker ends the recording (or SIGTERM),
// then what the kernel still held. The caller's filesystem identity must already be in effect.
// Returns 0, or -1 (why filled) when the worker went away or the group failed.
int access_feed_run(int group, int sock, const uint8_t key[FILE_IDENTITY_KEY_BYTES], const uint8_t fsid[8], char *why,
                    size_t whylen);

#endif
