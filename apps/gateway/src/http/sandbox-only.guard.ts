import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { LEDGER_CONFIG, LedgerConfig } from '@ledger/runtime';

/** Outside sandbox mode the simulation endpoints do not exist: 404, before any api-key check. */
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  constructor(@Inject(LEDGER_CONFIG) private readonly config: LedgerConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.config.sandbox) return true;
    const request = context.switchToHttp().getRequest<Request>();
    throw new NotFoundException(`Cannot ${request.method} ${request.path}`);
  }
}
