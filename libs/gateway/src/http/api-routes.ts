import { applyDecorators, Controller, Delete, Get, HttpCode, Patch, Post, Put, Type, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '@ledger/auth';
import { ApiErrors } from './openapi-models';
import { SandboxOnlyGuard } from './sandbox-only.guard';

/**
 * A controller of the program API: reached with an api-key (documented as such), grouped under
 * `tag` in the OpenAPI document, and answering 400 and 401 with the error body on every route, plus
 * `errors`. A sandbox-only controller does not exist outside sandbox mode: its guard answers 404
 * before the api-key is looked at.
 */
export function ProgramApi(tag: string, path: string, options: { errors?: number[]; sandboxOnly?: boolean } = {}): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiSecurity('api-key'),
    ApiErrors(400, 401, ...(options.errors ?? [])),
    Controller(path),
    options.sandboxOnly ? UseGuards(SandboxOnlyGuard, ApiKeyGuard) : UseGuards(ApiKeyGuard),
  );
}

const METHODS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

export interface RouteDocument {
  summary: string;
  /** The OpenAPI model of the 200 answer. */
  answers: Type<unknown>;
  /** What a 200 means, where the summary does not say it. */
  answerDescription?: string;
  /** The error statuses this route may answer beyond its controller's. */
  errors?: number[];
}

/**
 * One route and its OpenAPI operation; `path` is below the controller's ('' for the controller's
 * own). Every route answers 200 on success, a POST too: Lithic's API, which ours follows, never
 * answers 201.
 */
export function Route(method: keyof typeof METHODS, path: string | string[], document: RouteDocument): MethodDecorator {
  return applyDecorators(
    METHODS[method](path),
    ...(method === 'POST' ? [HttpCode(200)] : []),
    ApiOperation({ summary: document.summary }),
    ApiOkResponse({ type: document.answers, ...(document.answerDescription ? { description: document.answerDescription } : {}) }),
    ApiErrors(...(document.errors ?? [])),
  );
}
