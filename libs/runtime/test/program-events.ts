import type { FundingSourceAdded, ProgramCreated } from '@ledger/domain';

/** The program named Acme, unless `name` says otherwise. */
export function programCreated({ programToken, created, name = 'Acme' }: { programToken: string; created: string; name?: string }): ProgramCreated {
  return { type: 'ProgramCreated', data: { programToken, name, created } };
}

/** An ENABLED checking account `fund_default`, the program's default; any field may be given otherwise. */
export function fundingSourceAdded({ programToken, created, ...overrides }: Pick<FundingSourceAdded['data'], 'programToken' | 'created'> & Partial<FundingSourceAdded['data']>): FundingSourceAdded {
  return {
    type: 'FundingSourceAdded',
    data: { programToken, fundingToken: 'fund_default', type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Acme checking', lastFour: '1234', created, isDefault: true, ...overrides },
  };
}

/** A program's stream as most scenarios find it: created, then these funding sources added, the first its default. */
export function programWithFundingSources({ programToken, created, fundingTokens = ['fund_default'] }: { programToken: string; created: string; fundingTokens?: readonly string[] }): (ProgramCreated | FundingSourceAdded)[] {
  return [programCreated({ programToken, created }), ...fundingTokens.map((fundingToken, n) => fundingSourceAdded({ programToken, created, fundingToken, isDefault: n === 0 }))];
}
