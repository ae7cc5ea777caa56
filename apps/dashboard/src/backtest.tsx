import { useState } from 'preact/hooks';
import { ApiError, get, post } from './api';
import { DataTable } from './data-table';
import { href } from './router';
import { Badge, ErrorNote, InlineForm, TextField, useAction, useLoad, when } from './ui';

/** One version's part of a backtest report, as Lithic's BacktestStats. */
interface BacktestStats {
  version?: number;
  approved?: number;
  declined?: number;
  challenged?: number;
  examples?: { decision?: string; event_token?: string; timestamp?: string; transaction_token?: string | null }[];
}

interface BacktestReport {
  backtest_token: string;
  results?: { current_version: BacktestStats | null; draft_version: BacktestStats | null } | null;
  simulation_parameters: { start: string; end: string };
}

/** `results` is there once the report is computed: either version carries its number then. */
const computed = (report: BacktestReport) => report.results?.current_version?.version !== undefined || report.results?.draft_version?.version !== undefined;

const POLL_MS = 500;
const POLL_LIMIT = 120;

/** The text a `datetime-local` input shows for an instant, read as UTC (the service's times are UTC). */
const toInput = (date: Date) => date.toISOString().slice(0, 16);
const fromInput = (text: string, field: string) => {
  const date = new Date(`${text}Z`);
  if (!text || Number.isNaN(date.getTime())) throw new Error(`${field} must be a date and time`);
  return date.toISOString();
};

/**
 * Replays the program's past authorizations in a window through the rule's current and draft
 * versions, and shows what each would have approved and declined. The report is computed
 * asynchronously, so the page asks again until it has results.
 */
export function Backtest({ ruleToken }: { ruleToken: string }) {
  // The window ends at the program's business time (the test clock), so moved clocks still find their traffic.
  const clock = useLoad(async () => {
    try {
      return new Date((await get<{ now: string }>('/v1/simulate/clock')).now);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return new Date();
      throw error;
    }
  }, []);
  const [chosen, setChosen] = useState<{ start: string; end: string } | null>(null);
  const end = clock.data ? new Date(clock.data.getTime() + 60_000) : new Date();
  const shown = chosen ?? { start: toInput(new Date(end.getTime() - 30 * 86_400_000)), end: toInput(end) };
  const run = useAction(async () => {
    const started = await post<{ backtest_token: string }>(`/v2/auth_rules/${ruleToken}/backtests`, { start: fromInput(shown.start, 'Start'), end: fromInput(shown.end, 'End') });
    for (let asked = 0; asked < POLL_LIMIT; asked++) {
      const report = await get<BacktestReport>(`/v2/auth_rules/${ruleToken}/backtests/${started.backtest_token}`);
      if (computed(report)) return report;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`Backtest ${started.backtest_token} has no results yet; run it again later`);
  });
  return (
    <section aria-labelledby="rule-backtest">
      <h2 id="rule-backtest">Backtest</h2>
      <p>What the current version and the draft would have decided on the program's real authorizations in a window.</p>
      <InlineForm onSubmit={() => void run.run()}>
        <TextField label="From (UTC)" name="backtest-start" type="datetime-local" value={shown.start} onInput={(start) => setChosen({ ...shown, start })} />
        <TextField label="To (UTC)" name="backtest-end" type="datetime-local" value={shown.end} onInput={(endText) => setChosen({ ...shown, end: endText })} />
        <button type="submit" disabled={run.busy}>
          {run.busy ? 'Running backtest…' : 'Run backtest'}
        </button>
      </InlineForm>
      <ErrorNote error={run.error ?? clock.error} />
      {run.result && <BacktestReportView report={run.result} />}
    </section>
  );
}

function BacktestReportView({ report }: { report: BacktestReport }) {
  const rows = [
    ['Current version', report.results?.current_version],
    ['Draft', report.results?.draft_version],
  ].filter((row): row is [string, BacktestStats] => !!row[1]);
  const examples = rows.flatMap(([which, stats]) => (stats.examples ?? []).map((example) => ({ which, ...example })));
  return (
    <div role="region" aria-label="Backtest report">
      <p role="status" class="ok">
        Backtest {report.backtest_token}: authorizations from {when(report.simulation_parameters.start)} to {when(report.simulation_parameters.end)}.
      </p>
      <DataTable
        columns={[
          { header: 'Version', cell: ([which, stats]) => `${which} (v${stats.version})` },
          { header: 'Approved', class: 'amount', cell: ([, stats]) => stats.approved ?? 0 },
          { header: 'Declined', class: 'amount', cell: ([, stats]) => stats.declined ?? 0 },
          { header: 'Challenged', class: 'amount', cell: ([, stats]) => stats.challenged ?? 0 },
        ]}
        rows={rows}
        keyOf={([which]) => which}
      />
      {examples.length > 0 && (
        <>
          <h3>Examples</h3>
          <DataTable
            columns={[
              { header: 'Version', cell: (example) => example.which },
              { header: 'Decision', cell: (example) => (example.decision ? <Badge value={example.decision} /> : '') },
              { header: 'When', cell: (example) => when(example.timestamp) },
              { header: 'Authorization', cell: (example) => (example.transaction_token ? <a href={href('transactions', example.transaction_token)}>{example.transaction_token}</a> : <code>{example.event_token}</code>) },
            ]}
            rows={examples}
            keyOf={(example) => `${example.which}-${example.event_token}`}
          />
        </>
      )}
    </div>
  );
}
