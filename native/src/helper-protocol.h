// What the privileged helper answers, shared by the helper and the worker that starts it: its
// exit codes (never 126/127, which are pkexec's own: dismissed, not authorised / no agent).
// A verb that yields a descriptor sends it over stdout (a Unix socket) with one JSON line.
#ifndef DD_HELPER_PROTOCOL_H
#define DD_HELPER_PROTOCOL_H

enum {
  HX_OK = 0,
  HX_USAGE = 2,     // argv it does not know: unknown verb, wrong operand count, a write request
  HX_REFUSED = 3,   // the operand fails validation: not a block device, a link, not DiskDelta's file …
  HX_VANISHED = 4,  // the device or file is not there (unplugged, detached)
  HX_FAILED = 5,    // the kernel refused (errno in the message) or the caller's socket is gone
  HX_NOT_ROOT = 6,  // started without root: it must come through pkexec
};

#endif
