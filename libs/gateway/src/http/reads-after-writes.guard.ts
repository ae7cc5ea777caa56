import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, Observable, switchMap } from 'rxjs';
import { ProgramWritePositions } from './program-write-positions';

const READS = new Set(['GET', 'HEAD']);

/** A read by a program waits until the read models show the writes answered for it (ProgramWritePositions). */
@Injectable()
export class ReadsAfterWritesInterceptor implements NestInterceptor {
  constructor(private readonly positions: ProgramWritePositions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ method?: string; programToken?: string }>();
    if (!request.programToken || !READS.has(request.method ?? '')) return next.handle();
    return from(this.positions.caughtUp(request.programToken)).pipe(switchMap(() => next.handle()));
  }
}
