import 'reflect-metadata';
import { EmptyModel } from '@ledger/contracts';
import { GUARDS_METADATA, HTTP_CODE_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ApiKeyGuard } from '@ledger/auth';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ProgramApi, Route } from './api-routes';
import { DeclaredInputGuard } from './declared-input.guard';
import { IdempotencyGuard } from './idempotency.guard';
import { ReadsAfterWritesGuard } from './reads-after-writes.guard';
import { SandboxOnlyGuard } from './sandbox-only.guard';

@ProgramApi('examples', 'v1/examples')
class ExampleController {
  @Route('GET', '', { summary: 'List', answers: EmptyModel })
  list(): void {}

  @Route('POST', ':token/act', { summary: 'Act', answers: EmptyModel, errors: [404] })
  act(): void {}
}

@ProgramApi('examples', 'v1/simulate/examples', { sandboxOnly: true })
class SandboxExampleController {}

const metadata = (key: string, target: object) => Reflect.getMetadata(key, target);

describe('ProgramApi and Route', () => {
  it('guards every program route with the rate limiter, the api-key, then its declared inputs and the wait for its writes, and a sandbox-only one with the sandbox guard after the rate limiter', () => {
    expect(metadata(PATH_METADATA, ExampleController)).toBe('v1/examples');
    expect(metadata(GUARDS_METADATA, ExampleController)).toEqual([RateLimitGuard, ApiKeyGuard, DeclaredInputGuard, ReadsAfterWritesGuard]);
    expect(metadata(GUARDS_METADATA, SandboxExampleController)).toEqual([RateLimitGuard, SandboxOnlyGuard, ApiKeyGuard, DeclaredInputGuard, ReadsAfterWritesGuard]);
  });

  it('puts the idempotency guard on POST and PATCH routes alone, and no interceptor on any route', () => {
    const { list, act } = ExampleController.prototype;
    expect(metadata(GUARDS_METADATA, act)).toEqual([IdempotencyGuard]);
    expect(metadata(GUARDS_METADATA, list)).toBeUndefined();
    expect([metadata(INTERCEPTORS_METADATA, act), metadata(INTERCEPTORS_METADATA, list)]).toEqual([undefined, undefined]);
  });

  it('answers a POST with 200, as Lithic does, and leaves other methods at their default', () => {
    const { list, act } = ExampleController.prototype;
    expect(metadata(METHOD_METADATA, act)).toBe(RequestMethod.POST);
    expect(metadata(PATH_METADATA, act)).toBe(':token/act');
    expect(metadata(HTTP_CODE_METADATA, act)).toBe(200);
    expect(metadata(METHOD_METADATA, list)).toBe(RequestMethod.GET);
    expect(metadata(HTTP_CODE_METADATA, list)).toBeUndefined();
  });

  it("documents the controller's errors on the class and a route's own on the route", () => {
    const classResponses = metadata('swagger/apiResponse', ExampleController) as Record<string, unknown>;
    expect(Object.keys(classResponses).sort()).toEqual(['400', '401']);
    const routeResponses = metadata('swagger/apiResponse', ExampleController.prototype.act) as Record<string, unknown>;
    expect(Object.keys(routeResponses).sort()).toEqual(['200', '404']);
  });
});
