import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { WriteAcknowledger } from './write-acknowledger';

const READS = new Set(['GET', 'HEAD']);

/**
 * A read by a program waits until the read models show the writes answered for it at once
 * (WriteAcknowledger.readsWaitFor). The program API's last guard (api-routes.ts): after the api-key
 * guard, which names the program, and the declared-input check. A guard, not an interceptor, because it
 * only acts before the handler (see DeclaredInputGuard on what an interceptor costs every request).
 */
@Injectable()
export class ReadsAfterWritesGuard implements CanActivate {
  constructor(private readonly acknowledger: WriteAcknowledger) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ method?: string; programToken?: string }>();
    if (!request.programToken || !READS.has(request.method ?? '')) return true;
    return this.acknowledger.caughtUp(request.programToken).then(() => true);
  }
}
