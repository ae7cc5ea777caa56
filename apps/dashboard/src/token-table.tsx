import { get, Page, post } from './api';
import { Column, DataTable } from './data-table';
import { useLive } from './live';
import { Badge, ErrorNote, useAction, useLoad, when } from './ui';

/** A tokenization as the API answers it (Lithic's Tokenization; only what the dashboard shows). */
interface Tokenization {
  readonly token: string;
  readonly status: string;
  readonly token_requestor_name: string;
  readonly tokenization_channel: string;
  readonly created_at: string;
}

/**
 * What each status lets the program do to a token, as the API's table says (docs/api.md,
 * "Tokenizations"): a change it refuses shows its 409.
 */
const ACTIONS_OF_STATUS: Readonly<Record<string, readonly ('activate' | 'pause' | 'unpause' | 'deactivate')[]>> = {
  ACTIVE: ['pause', 'deactivate'],
  PAUSED: ['unpause', 'deactivate'],
  PENDING_2FA: ['activate', 'deactivate'],
  PENDING_ACTIVATION: ['activate', 'deactivate'],
  INACTIVE: ['activate', 'deactivate'],
  UNKNOWN: ['deactivate'],
};

const ACTION_TEXT = { activate: 'Activate', pause: 'Pause', unpause: 'Unpause', deactivate: 'Deactivate' } as const;

/** A card's tokens in digital wallets and at merchants, with the changes each allows. */
export function CardTokens({ cardToken }: { cardToken: string }) {
  const live = useLive();
  const tokens = useLoad(() => get<Page<Tokenization>>('/v1/tokenizations', { card_token: cardToken, tokenization_channel: 'ALL', page_size: 100 }), [cardToken, live.tick]);
  const columns: Column<Tokenization>[] = [
    { header: 'Created', cell: (token) => when(token.created_at) },
    { header: 'Wallet', cell: (token) => token.token_requestor_name },
    { header: 'Channel', cell: (token) => token.tokenization_channel },
    { header: 'Status', cell: (token) => <Badge value={token.status} /> },
    { header: 'Actions', class: 'actions', cell: (token) => <TokenActions token={token} onChanged={tokens.reload} /> },
  ];
  return (
    <section aria-labelledby="card-tokens">
      <h2 id="card-tokens">Tokens</h2>
      <p>Digital-wallet and card-on-file tokens of this card. A token that is not active declines what comes through it; the card itself stays as it is.</p>
      <ErrorNote error={tokens.error} />
      {tokens.data && tokens.data.data.length === 0 && <p>No tokens yet: a wallet asks for one (<code>POST /v1/simulate/tokenizations</code> in the sandbox).</p>}
      {tokens.data && tokens.data.data.length > 0 && <DataTable columns={columns} rows={tokens.data.data} keyOf={(token) => token.token} labelledBy="card-tokens" />}
    </section>
  );
}

function TokenActions({ token, onChanged }: { token: Tokenization; onChanged: () => void }) {
  const change = useAction(async (action: keyof typeof ACTION_TEXT) => {
    await post(`/v1/tokenizations/${token.token}/${action}`);
    onChanged();
  });
  return (
    <>
      {(ACTIONS_OF_STATUS[token.status] ?? []).map((action) => (
        <button
          key={action}
          type="button"
          class={action === 'deactivate' ? 'danger' : undefined}
          aria-label={`${ACTION_TEXT[action]} ${token.token_requestor_name} token ${token.token.slice(0, 8)}`}
          disabled={change.busy}
          onClick={() => (action !== 'deactivate' || confirm('Deactivate this token? Deactivation is final.')) && change.run(action)}
        >
          {ACTION_TEXT[action]}
        </button>
      ))}
      <ErrorNote error={change.error} />
    </>
  );
}
