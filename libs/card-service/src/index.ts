export * from './card-service.module';
export { AuthorizationStreamClient } from './authorization-stream/authorization-stream-client';
export { AuthorizeCardSpendHandler } from './card-spend/authorize-card-spend.handler';
export { ProgramSpend } from './card-spend/program-spend';
export { TokenizeCardHandler } from './tokenizations/tokenization.handlers';
