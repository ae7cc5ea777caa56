/**
 * The V8 flags every service process runs with, beside its heap cap (`--max-old-space-size`,
 * LEDGER_MAX_HEAP_MB). package.json's start scripts and the Dockerfile write them out
 * (node-flags.spec checks that they do); the bench passes them to the service it measures and to its
 * plain-Fastify yardstick. Why each, docs/decisions.md, "Memory":
 * - `--max-semi-space-size=8` caps the young generation, which grew with the request rate;
 * - `--no-allocation-site-pretenuring`: V8 otherwise sometimes decides, from a few collections at
 *   start-up, that the objects of a request (Node's request and response, their header strings, the
 *   socket's queued writes) live long, and from then on allocates them straight in the old
 *   generation, where only full collections free them, for the whole life of the process.
 */
export const SERVICE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--no-allocation-site-pretenuring'];
