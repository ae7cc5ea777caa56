import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { useLive } from '../live';
import { ErrorNote, InlineForm, TextField, useAction, useLoad, when } from '../ui';

/** The same instant a calendar unit later, in UTC (31 January plus a month is the last day of February). */
export function later(iso: string, unit: 'day' | 'month' | 'year', count = 1): string {
  const date = new Date(iso);
  if (unit === 'day') return new Date(date.getTime() + count * 86_400_000).toISOString();
  const target = new Date(date);
  target.setUTCDate(1);
  if (unit === 'month') target.setUTCMonth(target.getUTCMonth() + count);
  else target.setUTCFullYear(target.getUTCFullYear() + count);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target.toISOString();
}

export function ClockPage() {
  const live = useLive();
  const clock = useLoad(() => get('/v1/simulate/clock'), [live.tick]);
  const [target, setTarget] = useState('');
  const advance = useAction(async (frozenTime: string) => {
    const answer = await post('/v1/simulate/clock/advance', { frozen_time: frozenTime });
    clock.reload();
    return answer;
  });
  const now: string | undefined = clock.data?.now;
  return (
    <>
      <h1>Test clock</h1>
      <p>The program's clock: every time-dependent rule (spend windows, velocity, expiry, date filters) reads it. It only moves forward.</p>
      <ErrorNote error={clock.error} />
      {now && (
        <p class="clock" role="status" aria-live="polite">
          Program time: <strong data-testid="clock-now">{when(now)}</strong>
        </p>
      )}
      {now && (
        <div class="actions">
          <button type="button" onClick={() => advance.run(later(now, 'day'))}>
            Advance one day
          </button>
          <button type="button" onClick={() => advance.run(later(now, 'month'))}>
            Advance one month
          </button>
          <button type="button" onClick={() => advance.run(later(now, 'year'))}>
            Advance one year
          </button>
        </div>
      )}
      <InlineForm onSubmit={() => void advance.run(new Date(`${target}Z`).toISOString())}>
        <TextField label="Advance to (UTC)" type="datetime-local" value={target} onInput={setTarget} />
        <button type="submit">Advance clock</button>
      </InlineForm>
      <ErrorNote error={advance.error} />
    </>
  );
}
