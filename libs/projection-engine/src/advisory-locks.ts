/**
 * Advisory lock namespaces (the first key of PostgreSQL's two-key advisory locks); the second
 * key is hashtext(projector name).
 */
export const LOCK_NAMESPACE = {
  /** Held (session level) by the one process running a projector live. */
  runner: 4242,
  /** Shared by each live batch transaction, exclusive during a rebuild's swap. */
  swap: 4243,
  /** Held by the one process rebuilding a projector. */
  rebuild: 4244,
} as const;
