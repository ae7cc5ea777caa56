import { type AuthorizationChecks, type AuthorizationFacts, tokenizationDecider, tokenizationStreamId, tokenSpendCheck } from '@ledger/domain';
import type { StreamReader } from '@ledger/event-store';

/**
 * An authorization made through a wallet token: the token's stream is read with the card's, and the
 * authorization's write checks its version (writing nothing on it), so a pause or a deactivation
 * written meanwhile refuses the write and the decision is taken again on the token as it now is.
 */
export async function authorizationToken(reader: StreamReader, tokenizationToken: string | undefined, cardToken: string, programToken: string) {
  if (tokenizationToken === undefined) return { facts: {}, checks: {}, checked: [] };
  const streamId = tokenizationStreamId(tokenizationToken);
  const fold = await reader.fold(tokenizationDecider, streamId);
  const { tokenInfo, decline } = tokenSpendCheck(fold.state, tokenizationToken, cardToken, programToken);
  const facts: Pick<AuthorizationFacts, 'tokenInfo'> = { tokenInfo };
  const checks: Pick<AuthorizationChecks, 'tokenDecline'> = { tokenDecline: decline };
  return { facts, checks, checked: [{ streamId, folder: tokenizationDecider, fold, events: [] }] };
}
