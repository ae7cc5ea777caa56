import type { PanEntryMode, WalletType } from '../auth-rules/auth-rule-parameters';

/**
 * What the point of sale says about an authorization beside the merchant: how the PAN was entered,
 * the digital wallet it came from, and the part of the amount taken as cash. Recorded on the
 * authorization's facts only when the request gave any, so every authorization recorded before (and
 * every one without them) is recorded exactly as it was; such facts read as Lithic's unknowns.
 */
export interface AuthorizationPos {
  readonly panEntryMode?: PanEntryMode;
  readonly walletType?: WalletType;
  /** Cents of the amount taken as cash (cash back, an ATM withdrawal). */
  readonly cashAmount?: number;
}

export interface PosFacts {
  readonly panEntryMode: PanEntryMode;
  readonly walletType: WalletType;
  readonly cashAmount: number;
}

/** The POS facts as the rules read them: UNKNOWN entry mode, no wallet, no cash when not given. */
export function posFactsOf(pos: AuthorizationPos | undefined): PosFacts {
  return { panEntryMode: pos?.panEntryMode ?? 'UNKNOWN', walletType: pos?.walletType ?? 'NONE', cashAmount: pos?.cashAmount ?? 0 };
}
