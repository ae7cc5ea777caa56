import { Pool } from 'pg';

/**
 * The service's connections to PostgreSQL, with JIT compilation off. The planner estimates the
 * append statement's JSON unpacking at thousands of rows whatever it holds, which puts every append
 * past `jit_above_cost`: on a server built with JIT (most packaged PostgreSQL, the official images;
 * not the embedded default) each append then spent about 20 ms compiling itself with LLVM, and an
 * authorization's write ceiling fell from about 5,200 to 680 writes/s (docs/benchmarks.md). The
 * service's statements are short, so none gains from JIT. An `options` parameter in the connection
 * string is the operator's and wins over this one.
 */
export function databasePool(connectionString: string, max: number): Pool {
  return new Pool({ connectionString, max, options: '-c jit=off' });
}
