import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { LEDGER_CONFIG, LedgerConfig } from '@ledger/runtime';
import { pathOf } from './request-path';

/** Outside sandbox mode the simulation endpoints do not exist: 404, before any api-key check. */
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  constructor(@Inject(LEDGER_CONFIG) private readonly config: LedgerConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.config.sandbox) return true;
    const request = context.switchToHttp().getRequest<{ method: string; path?: string; url?: string }>();
    throw new NotFoundException(`Cannot ${request.method} ${pathOf(request)}`);
  }
}
