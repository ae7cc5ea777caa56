/** The largest request body, in bytes (100 KiB, body-parser's "100kb"), on either HTTP stack. */
export const BODY_LIMIT_BYTES = 100 * 1024;
