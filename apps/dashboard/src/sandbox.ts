import { ApiError, get } from './api';
import { useLoad } from './ui';

/**
 * Whether the service runs as a sandbox: its simulate paths answer 404 when it does not, so the test
 * clock (a simulate path every sandbox has) tells. False until it has answered, so a control that
 * only a sandbox has is never offered and then taken away.
 */
export function useSandbox(): boolean {
  const clock = useLoad(() => get('/v1/simulate/clock'), []);
  return clock.data !== undefined && !(clock.error instanceof ApiError && clock.error.status === 404);
}
