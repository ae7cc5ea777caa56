import { get, patch, post } from './api';

/** What a recipe may change in the authorize form. */
export interface AuthorizeFill {
  amount?: string;
  descriptor?: string;
  cvv?: string;
  pin?: string;
}

/** A card as the recipes need it. */
export interface RecipeCard {
  token: string;
  pan: string;
  spend_limit: number;
}

/**
 * How to provoke each decline reason in the sandbox (docs/declines.md), as the simulate page offers
 * them: what to do, what the form is filled with, and, where a setting must change first, a
 * `prepare` step that makes that change through the API and says what it did.
 */
export interface DeclineRecipe {
  readonly reason: string;
  readonly how: string;
  readonly fill?: (card: RecipeCard) => AuthorizeFill;
  readonly prepare?: { readonly label: string; run(card: RecipeCard): Promise<string> };
}

async function accountToken(): Promise<string> {
  const accounts = await get<{ data: { token: string }[] }>('/v1/accounts');
  return accounts.data[0].token;
}

async function patchAccount(body: object): Promise<void> {
  await patch(`/v1/accounts/${await accountToken()}`, body);
}

export const DECLINE_RECIPES: readonly DeclineRecipe[] = [
  {
    reason: 'USER_TRANSACTION_LIMIT',
    how: "Authorize more than is left of the card's spend limit in its window.",
    fill: (card) => ({ amount: card.spend_limit > 0 ? ((card.spend_limit + 1) / 100).toFixed(2) : '1.00' }),
  },
  {
    reason: 'CARD_PAUSED',
    how: 'Pause the card, then authorize.',
    prepare: { label: 'Pause the card', run: async (card) => (await patch(`/v1/cards/${card.token}`, { state: 'PAUSED' }), 'the card is now PAUSED') },
  },
  {
    reason: 'CARD_CLOSED',
    how: 'Close the card (final), then authorize.',
    prepare: { label: 'Close the card', run: async (card) => (await patch(`/v1/cards/${card.token}`, { state: 'CLOSED' }), 'the card is now CLOSED') },
  },
  { reason: 'SINGLE_USE_RECHARGED', how: 'Use a SINGLE_USE card: the first authorization is approved and closes it; authorize again.' },
  { reason: 'UNAUTHORIZED_MERCHANT', how: 'Use a MERCHANT_LOCKED card: authorize at one descriptor (approved, the card locks to it), then at another.', fill: () => ({ descriptor: 'Another Merchant' }) },
  { reason: 'INVALID_CARD_DETAILS', how: "Present a CVV other than the card's.", fill: () => ({ cvv: '000' }) },
  { reason: 'INCORRECT_PIN', how: 'Present a PIN the card does not have (a card without a PIN declines any PIN).', fill: () => ({ pin: '0000' }) },
  {
    reason: 'MERCHANT_BLACKLIST',
    how: "Block the merchant in the account's settings, then authorize there.",
    fill: () => ({ descriptor: 'Casino Royale' }),
    prepare: { label: 'Block "Casino Royale" for the account', run: async () => (await patchAccount({ blocked_merchants: ['Casino Royale'] }), 'the account now blocks Casino Royale (Account page to undo)') },
  },
  {
    reason: 'FRAUD_ADVICE',
    how: 'Set a velocity rule of one authorization a minute, then authorize twice.',
    prepare: { label: 'Set velocity to 1 per 60 s', run: async () => (await patchAccount({ velocity_limit: { max_authorizations: 1, window_seconds: 60 } }), 'velocity rule: 1 authorization per 60 s (Account page to undo)') },
  },
  {
    reason: 'GLOBAL_TRANSACTION_LIMIT',
    how: 'Set a platform per-transaction limit of 5.00, then authorize 5.01.',
    fill: () => ({ amount: '5.01' }),
    prepare: { label: 'Set the platform transaction limit to 5.00', run: async () => (await patchAccount({ spend_limit: { transaction: 500 } }), 'platform transaction limit: 5.00 (Account page to undo)') },
  },
  { reason: 'GLOBAL_WEEKLY_LIMIT', how: "Set the account's weekly limit below the week's spend plus this amount (Account page), then authorize." },
  { reason: 'GLOBAL_MONTHLY_LIMIT', how: "Set the account's monthly limit below the trailing month's spend plus this amount (Account page), then authorize." },
  {
    reason: 'INACTIVE_ACCOUNT',
    how: 'Pause the account, then authorize.',
    prepare: { label: 'Pause the account', run: async () => (await patchAccount({ state: 'PAUSED' }), 'the account is PAUSED (Account page to resume)') },
  },
  { reason: 'ACCOUNT_STATE_TRANSACTION_FAIL', how: 'Close the account (Account page), then authorize.' },
  {
    reason: 'BANK_NOT_VERIFIED',
    how: 'Put the card on a PENDING funding source, then authorize.',
    prepare: {
      label: 'Move the card to a new PENDING funding source',
      run: async (card) => {
        const source = await post<{ token: string }>('/v1/funding_sources', { account_name: 'Unverified', state: 'PENDING' });
        await patch(`/v1/cards/${card.token}`, { funding_token: source.token });
        return 'the card is funded by a PENDING source';
      },
    },
  },
  { reason: 'BANK_CONNECTION_ERROR', how: "Set the card's funding source to DISCONNECTED (Account page), then authorize." },
  { reason: 'INSUFFICIENT_FUNDS', how: "Set the card's funding source to INSUFFICIENT_FUNDS (Account page), then authorize." },
  { reason: 'INSUFFICIENT_FUNDS_PRELOAD', how: 'Enroll an authorization stream (Account page) whose endpoint answers {"result":"INSUFFICIENT_FUNDS"}.' },
  { reason: 'UNKNOWN_HOST_TIMEOUT', how: 'Enroll an authorization stream whose endpoint does not answer within its timeout.' },
  { reason: 'SWITCH_INOPERATIVE_ADVICE', how: 'Enroll an authorization stream at a URL nothing listens on.' },
];
