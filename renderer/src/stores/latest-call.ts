// A store's load can be called again before its last call is answered (a page's own load on
// opening, then the one a finished run triggers): the answers may arrive in either order over
// the socket, and an older one applied last puts back what the newer one replaced (the Working
// set page then never showed the scan that had just ended). Each call takes a ticket; only the
// newest ticket's answer is applied.

/** `const isNewest = ticket();` at a call's start; after each await, apply nothing unless `isNewest()`. */
export function latestCall(): () => () => boolean {
  let newest = 0;
  return () => {
    const mine = ++newest;
    return () => mine === newest;
  };
}
