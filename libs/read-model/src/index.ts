export * from './migrate';
export * from './prisma-client';
export * from './read-model-types';
export * from './embedded-postgres';
export * from './rows/domain-rows';
export * from './presenters/api-shapes';
export * from './program-spend-tally';
export * from './sql-literals';
