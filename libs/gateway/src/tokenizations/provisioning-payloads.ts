import { createHash } from 'node:crypto';
import type { ApplePayProvisioningPayload, CardWebProvisionResponse } from '@ledger/contracts';

/**
 * The sandbox's provisioning payloads. A real payload is the card's details encrypted for the
 * wallet's certificate; the sandbox has no wallet to decrypt it, so each field is a digest of the
 * card token, the wallet and what the device sent: the same request always gets the same payload,
 * two cards or devices never share one, and no card detail is in it.
 */

const digest = (...parts: readonly (string | undefined)[]): Buffer => createHash('sha256').update(parts.map((part) => part ?? '').join('\u0000')).digest();
const base64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

export interface ProvisioningDevice {
  readonly nonce?: string;
  readonly nonceSignature?: string;
  readonly certificate?: string;
  readonly clientDeviceId?: string;
  readonly clientWalletAccountId?: string;
  readonly serverSessionId?: string;
}

/** Apple Pay takes the three fields of PassKit's add-payment-pass request; Google and Samsung one opaque string. */
export function provisioningPayload(cardToken: string, wallet: 'APPLE_PAY' | 'GOOGLE_PAY' | 'SAMSUNG_PAY', device: ProvisioningDevice): string | ApplePayProvisioningPayload {
  const seed = [cardToken, wallet, device.nonce, device.nonceSignature, device.certificate, device.clientDeviceId, device.clientWalletAccountId];
  if (wallet !== 'APPLE_PAY') return digest('opaque', ...seed).toString('base64');
  return {
    activationData: digest('activation', ...seed).toString('base64'),
    encryptedData: digest('encrypted', ...seed).toString('base64'),
    ephemeralPublicKey: digest('ephemeral', ...seed).toString('base64'),
  };
}

/** Apple's web push provisioning is a JWS (here unsigned: `alg` none) and a state; Google's two OPCs. */
export function webProvisioningPayload(cardToken: string, wallet: 'APPLE_PAY' | 'GOOGLE_PAY', device: ProvisioningDevice): CardWebProvisionResponse {
  const seed = [cardToken, wallet, device.clientDeviceId, device.clientWalletAccountId, device.serverSessionId];
  if (wallet === 'GOOGLE_PAY') return { google_opc: digest('google-opc', ...seed).toString('base64'), tsp_opc: digest('tsp-opc', ...seed).toString('base64') };
  const payload = base64url(JSON.stringify({ card_token: cardToken, session: base64url(digest('session', ...seed)) }));
  const protectedHeader = base64url(JSON.stringify({ alg: 'none' }));
  return {
    jws: { header: { kid: 'sandbox' }, payload, protected: protectedHeader, signature: base64url(digest('signature', protectedHeader, payload)) },
    state: base64url(digest('state', ...seed)),
  };
}
