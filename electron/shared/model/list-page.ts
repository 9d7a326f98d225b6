// How many runs one library.list call answers. A module of its own, without schemas: the
// renderer's Library store needs these two numbers on the first screen, and importing them
// from run-summary.ts pulled zod into the first-load bundle (issue 22, item 9).

/** library.list answers at most this many runs (DEFAULT_LIST_PAGE when the caller names no limit). */
export const MAX_LIST_PAGE = 5000;
export const DEFAULT_LIST_PAGE = 500;
