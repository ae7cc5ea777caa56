import type { PrismaClient } from './generated/prisma/client';

/** The Prisma client over the read models, and the client a `$transaction` callback receives. */
export type ReadModelClient = PrismaClient;
export type ReadModelTransaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
