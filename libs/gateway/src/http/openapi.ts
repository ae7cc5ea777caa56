import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { declareInputs } from './declared-input.guard';

export const API_KEY_SCHEME = 'api-key';

/**
 * The OpenAPI 3.1 document of the REST API, built from the controllers' and DTOs' decorators, served
 * at /openapi.json with Swagger UI at /docs; neither needs an api-key. @nestjs/swagger 11 writes
 * OpenAPI 3.0 schemas (`nullable`), so the document is rewritten to their 3.1 (JSON Schema 2020-12)
 * forms before its version says 3.1.0. No field declares an exclusive bound (3.0 writes it as a
 * boolean; openapi.spec fails if one appears). The document is also what each route's declared
 * inputs are read from (DeclaredInputGuard).
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Card ledger API')
    .setDescription(
      'Event-sourced card issuing: cards, transactions, and (sandbox only) simulated card-network traffic. ' +
        'Send the program api-key as `Authorization: api-key <KEY>` (or the bare key, as the Lithic SDK does). ' +
        'Request bodies are JSON sent with `Content-Type: application/json` (any other type is 415); a route takes only the query ' +
        'parameters it documents (others are 400), and a method a path does not take is 405 with `Allow`. ' +
        'Every error answers `{ debugging_request_id, message }`.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: '`api-key <KEY>` or the bare key' }, API_KEY_SCHEME)
    .build();
  const operationIdFactory = (controllerKey: string, methodKey: string) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`;
  const document = toOpenApi31(SwaggerModule.createDocument(app, config, { operationIdFactory }));
  declareInputs(app.getHttpAdapter().getInstance(), document);
  SwaggerModule.setup('/docs', app, document, {
    jsonDocumentUrl: '/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Card ledger API',
    patchDocumentOnRequest: (request, _response, served) => withServer(served, request as FastifyRequest),
  });
}

/**
 * Each answer names the server it was asked of, so a client generator gets the base URL to call:
 * protocol and Host as the client used them (X-Forwarded-Proto counts only where the HTTP stack is
 * told to trust a proxy). It only echoes the caller's own request back to it, so a forged Host
 * misleads no one else.
 */
function withServer(document: OpenAPIObject, { protocol, headers: { host } }: FastifyRequest): OpenAPIObject {
  return host ? { ...document, servers: [{ url: `${protocol}://${host}` }] } : document;
}

type Json = Record<string, any>;

/**
 * Rewrites the 3.0-only `nullable` to a `null` type or `anyOf`, makes operationIds unique and plain
 * (an aliased path repeats one), and gives public operations an explicit empty `security`.
 */
function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  rewriteNullable(document);
  const seenIds = new Set<string>();
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    // Nest's path items hold operations only.
    for (const operation of Object.values<Json>(item)) {
      // An operation with no security requirement of its own is public (no api-key guard, e.g. /health):
      // say so, as `[]`, rather than leave a reader to guess.
      operation.security ||= [];
      if (operation.operationId) {
        let id = (operation.operationId as string).replace(/\[\d+\]$/, '');
        if (seenIds.has(id)) id = `${id}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
        seenIds.add(id);
        operation.operationId = id;
      }
      for (const response of Object.values<Json>(operation.responses ?? {})) response.description ||= 'OK';
    }
  }
  return document;
}

/** Every schema of the document, at any depth, with its 3.0 `nullable` in its 3.1 form. */
function rewriteNullable(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  for (const child of Object.values(schema)) rewriteNullable(child);
  // A boolean: a property named `nullable` would hold a schema.
  if (typeof schema.nullable !== 'boolean') return;
  const nullable = schema.nullable;
  delete schema.nullable;
  if (!nullable) return;
  if (schema.$ref || schema.allOf) {
    const only = !schema.$ref && schema.allOf?.length === 1 && Object.keys(schema.allOf[0]).join() === '$ref';
    const target = schema.$ref ? { $ref: schema.$ref } : only ? schema.allOf[0] : { allOf: schema.allOf };
    delete schema.$ref;
    delete schema.allOf;
    delete schema.type;
    schema.anyOf = [target, { type: 'null' }];
  } else if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  }
}
