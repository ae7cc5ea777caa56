import type { Decider } from '../core/decider';

/**
 * The tokens a program has, oldest first: one stream per program, `tokenizations-<program token>`,
 * written in the same atomic write as each token's first event. It is how a list finds the program's
 * tokens without a read model, and so shows a token the moment its write succeeded.
 */

export const PROGRAM_TOKENIZATIONS_STREAM_CATEGORY = 'tokenizations';
export const programTokenizationsStreamId = (programToken: string): string => `${PROGRAM_TOKENIZATIONS_STREAM_CATEGORY}-${programToken}`;

export interface ListTokenization {
  readonly type: 'ListTokenization';
  readonly programToken: string;
  readonly tokenizationToken: string;
}

export interface TokenizationListed {
  readonly type: 'TokenizationListed';
  readonly data: { readonly programToken: string; readonly tokenizationToken: string };
}

export type ProgramTokenizationsEvent = TokenizationListed;

export interface ProgramTokenizations {
  readonly tokenizationTokens: readonly string[];
}

/** Listing a token twice records nothing. */
export const programTokenizationsDecider: Decider<ListTokenization, ProgramTokenizationsEvent, ProgramTokenizations> = {
  initialState: () => ({ tokenizationTokens: [] }),
  decide: ({ programToken, tokenizationToken }, state) => (state.tokenizationTokens.includes(tokenizationToken) ? [] : [{ type: 'TokenizationListed', data: { programToken, tokenizationToken } }]),
  evolve: (state, event) => (state.tokenizationTokens.includes(event.data.tokenizationToken) ? state : { tokenizationTokens: [...state.tokenizationTokens, event.data.tokenizationToken] }),
};
