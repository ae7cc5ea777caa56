import { ThreeDSAuthenticationNotFound } from './three-ds-errors';
import type { DecisionMadeBy, ThreeDSAuthentication } from './three-ds-authentication';
import { ownedThreeDSAuthentication } from './three-ds-authentication';

/**
 * What an authorization records of the 3DS authentication that preceded it, as Lithic's transaction
 * shows it (`cardholder_authentication`): copied into the authorization's event, so the transaction
 * shows it on replay and at any `as_of` without reading the authentication's stream again.
 */
export interface CardholderAuthentication {
  readonly threeDSAuthenticationToken: string;
  readonly method: 'FRICTIONLESS' | 'CHALLENGE';
  readonly result: 'SUCCESS' | 'DECLINE' | 'NONE';
  readonly decisionMadeBy: DecisionMadeBy;
  readonly liabilityShift: '3DS_AUTHENTICATED' | 'NONE';
}

/**
 * The authentication an authorization names must be the program's and the same card's. An
 * authentication still waiting for its challenge authenticated nothing (result NONE); only a
 * successful one shifts liability to the issuer.
 */
export function cardholderAuthenticationFor(authentication: ThreeDSAuthentication, token: string, cardToken: string, programToken: string): CardholderAuthentication {
  const owned = ownedThreeDSAuthentication(authentication, token, programToken, 'three_ds_authentication_token');
  if (owned.cardToken !== cardToken) throw new ThreeDSAuthenticationNotFound(token, 'three_ds_authentication_token');
  const result = owned.result === 'PENDING_CHALLENGE' ? 'NONE' : owned.result;
  return {
    threeDSAuthenticationToken: owned.threeDSAuthenticationToken,
    method: owned.challenge === null ? 'FRICTIONLESS' : 'CHALLENGE',
    result,
    decisionMadeBy: owned.decisionMadeBy,
    liabilityShift: result === 'SUCCESS' ? '3DS_AUTHENTICATED' : 'NONE',
  };
}
