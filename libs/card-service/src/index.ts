export * from './card-service.module';
