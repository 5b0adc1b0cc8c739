// PostgreSQL's settings for the embedded database (after PGlite's defaults), shared by the
// database module and the entry point's early start (which must not load Prisma's client).

/**
 * The embedded database holds the audit trail of one sidecar: a small working set. PostgreSQL's
 * default 128 MB of shared buffers cost about 130 MB of resident memory and half a second of start
 * (the buffer pool lives in, and is initialised inside, the WebAssembly memory); 16 MB is plenty.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

export const PGLITE_START_PARAMS = ['-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
