/** The largest request body, in bytes (100 KiB): over it, 413 before the body is parsed. */
export const BODY_LIMIT_BYTES = 100 * 1024;
