import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { EndpointUrlInvalid } from '../core/endpoint-url';
import {
  AddFundingSource,
  AuthorizationStreamNotEnrolled,
  ApiKeyNotFound,
  CreateProgram,
  ExistingProgram,
  FundingSource,
  FundingSourceNotFound,
  isMerchantBlocked,
  ProgramAlreadyExists,
  programDecider,
  ProgramEvent,
  ProgramNotFound,
  ProgramSettingsChanged,
  resolveFundingSource,
  UpdateFundingSource,
  UpdateProgramSettings,
} from './program';
import { fundingToken, now, programToken } from '../../test/fixtures';

// ---------------------------------------------------------------- fixtures

const created = now.toISOString();
const spec = deciderSpecification(programDecider, { now });

const defaultFundingToken = fundingToken;
const savingsToken = '3f9a2b1c-7d6e-4f5a-8b9c-0d1e2f3a4b5c';
const foreignFundingToken = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

const defaultSource: FundingSource = {
  fundingToken: defaultFundingToken,
  type: 'DEPOSITORY_CHECKING',
  state: 'ENABLED',
  nickname: '',
  accountName: 'Sandbox checking',
  lastFour: '5263',
  created,
};
const savings: FundingSource = {
  fundingToken: savingsToken,
  type: 'DEPOSITORY_SAVINGS',
  state: 'PENDING',
  nickname: 'rainy day',
  accountName: 'Sandbox savings',
  lastFour: '0042',
  created,
};

// ---------------------------------------------------------------- events

const programCreated: ProgramEvent = { type: 'ProgramCreated', data: { programToken, name: 'Sandbox', created } };
const keyIssued = (keyId: string): ProgramEvent => ({ type: 'ApiKeyIssued', data: { programToken, keyId, keyHash: `hash-of-${keyId}`, created } });
const keyRevoked = (keyId: string): ProgramEvent => ({ type: 'ApiKeyRevoked', data: { programToken, keyId } });
const sourceAdded = (source: FundingSource, isDefault = false): ProgramEvent => ({ type: 'FundingSourceAdded', data: { programToken, ...source, isDefault } });
const sourceChanged = (fundingToken: string, changes: { state?: FundingSource['state']; nickname?: string }): ProgramEvent => ({
  type: 'FundingSourceChanged',
  data: { programToken, fundingToken, ...changes },
});
const settingsChanged = (changes: Omit<ProgramSettingsChanged['data'], 'programToken'>): ProgramEvent => ({
  type: 'ProgramSettingsChanged',
  data: { programToken, ...changes },
});

/** A program as CreateProgram leaves it: one key, one default checking source. */
const aProgram: ProgramEvent[] = [programCreated, keyIssued('key-1'), sourceAdded(defaultSource, true)];
const withSavings: ProgramEvent[] = [...aProgram, sourceAdded(savings)];

// ---------------------------------------------------------------- commands

const create = (): CreateProgram => ({
  type: 'CreateProgram',
  programToken,
  name: 'Sandbox',
  apiKey: { keyId: 'key-1', keyHash: 'hash-of-key-1' },
  defaultFundingSource: { fundingToken: defaultFundingToken, nickname: '', accountName: 'Sandbox checking', lastFour: '5263' },
});
const addSource = (source: Omit<FundingSource, 'created'>): AddFundingSource => ({ type: 'AddFundingSource', programToken, source });
const updateSource = (fundingToken: string, changes: Omit<UpdateFundingSource, 'type' | 'programToken' | 'fundingToken'>): UpdateFundingSource => ({
  type: 'UpdateFundingSource',
  programToken,
  fundingToken,
  ...changes,
});
const updateSettings = (changes: Omit<UpdateProgramSettings, 'type' | 'programToken'>): UpdateProgramSettings => ({
  type: 'UpdateProgramSettings',
  programToken,
  ...changes,
});

const programAfter = (events: readonly ProgramEvent[]): ExistingProgram => {
  const program = foldEvents(programDecider, events);
  if (program.status !== 'active') throw new Error('expected an existing program');
  return program;
};

const merchant = (descriptor: string, acceptorId = '') => ({ descriptor, acceptorId });

// ---------------------------------------------------------------- specs

describe('program aggregate', () => {
  describe('create', () => {
    it('creates the program, its first api key and an ENABLED DEPOSITORY_CHECKING default funding source', () => {
      spec.given([]).when(create()).then(aProgram);
    });

    it('refuses a second create of the same program', () => {
      spec.given(aProgram).when(create()).thenThrows(ProgramAlreadyExists);
    });

    it('starts ACTIVE, with no platform limits, no velocity rule, an empty blocklist, no authorization stream and the wall clock', () => {
      expect(programAfter(aProgram)).toEqual({
        status: 'active',
        programToken,
        name: 'Sandbox',
        created: now.toISOString(),
        apiKeyIds: ['key-1'],
        fundingSources: [defaultSource],
        defaultFundingToken,
        state: 'ACTIVE',
        spendLimits: { transaction: 0, weekly: 0, monthly: 0 },
        accountSpendLimits: { daily: 0, lifetime: 0 },
        velocityRule: null,
        blockedMerchants: [],
        authorizationStream: null,
        clock: null,
      });
    });

    describe('authorization stream', () => {
      const enroll = (url: string, timeoutMs = 2000, newSecretSealed = 'sealed-1') =>
        ({ type: 'EnrollAuthorizationStream', programToken, url, timeoutMs, newSecretSealed }) as const;
      const enrolled = (url: string, timeoutMs = 2000, secretSealed = 'sealed-1'): ProgramEvent => ({
        type: 'AuthorizationStreamEnrolled',
        data: { programToken, url, timeoutMs, secretSealed },
      });

      it('enrolls an endpoint with a new secret', () => {
        spec.given(aProgram).when(enroll('https://a.example/asa')).then([enrolled('https://a.example/asa')]);
      });

      it('keeps the secret when the endpoint changes, and records nothing when nothing does', () => {
        spec.given([...aProgram, enrolled('https://a.example/asa')]).when(enroll('https://b.example/asa', 3000, 'sealed-2')).then([enrolled('https://b.example/asa', 3000, 'sealed-1')]);
        spec.given([...aProgram, enrolled('https://a.example/asa')]).when(enroll('https://a.example/asa', 2000, 'sealed-2')).then([]);
      });

      describe('enrolled without a timeout (a Lithic responder endpoint)', () => {
        const enrollWithoutTimeout = (url: string) => ({ type: 'EnrollAuthorizationStream', programToken, url, newSecretSealed: 'sealed-2' }) as const;

        it('given no stream, when enrolled, then the stream gets the default timeout and a new secret', () => {
          spec.given(aProgram).when(enrollWithoutTimeout('https://a.example/asa')).then([enrolled('https://a.example/asa', 2000, 'sealed-2')]);
        });

        it('given a stream with its own timeout, when enrolled at another url, then it keeps that timeout and its secret', () => {
          spec.given([...aProgram, enrolled('https://a.example/asa', 4500)]).when(enrollWithoutTimeout('https://b.example/asa')).then([enrolled('https://b.example/asa', 4500, 'sealed-1')]);
        });

        it('given a stream at that url, when enrolled again, then nothing is recorded', () => {
          spec.given([...aProgram, enrolled('https://a.example/asa', 4500)]).when(enrollWithoutTimeout('https://a.example/asa')).then([]);
        });

        it('refuses a url the stream refuses', () => {
          spec.given(aProgram).when(enrollWithoutTimeout('ftp://a.example/asa')).thenThrows(EndpointUrlInvalid);
        });
      });

      it.each(['ftp://a.example/asa', 'not a url', 'https://user:pw@a.example/asa', 'https://token@a.example/asa'])('refuses the url %j', (url) => {
        spec.given(aProgram).when(enroll(url)).thenThrows(EndpointUrlInvalid);
        spec.given([...aProgram, enrolled('https://a.example/asa')]).when(enroll(url)).thenThrows(EndpointUrlInvalid);
      });

      it('rotates the secret of an enrolled stream, keeping its endpoint', () => {
        const rotated: ProgramEvent = { type: 'AuthorizationStreamSecretRotated', data: { programToken, secretSealed: 'sealed-2' } };
        spec.given([...aProgram, enrolled('https://a.example/asa')]).when({ type: 'RotateAuthorizationStreamSecret', programToken, newSecretSealed: 'sealed-2' }).then([rotated]);
        const state = foldEvents(programDecider, [...aProgram, enrolled('https://a.example/asa'), rotated]);
        expect(state).toMatchObject({ authorizationStream: { url: 'https://a.example/asa', timeoutMs: 2000, secretSealed: 'sealed-2' } });
      });

      it('keeps the rotated secret when the endpoint is enrolled again', () => {
        const rotated: ProgramEvent = { type: 'AuthorizationStreamSecretRotated', data: { programToken, secretSealed: 'sealed-2' } };
        spec.given([...aProgram, enrolled('https://a.example/asa'), rotated]).when(enroll('https://b.example/asa', 2000, 'sealed-3')).then([enrolled('https://b.example/asa', 2000, 'sealed-2')]);
      });

      it('has no secret to rotate without an enrolled stream', () => {
        const rotate = { type: 'RotateAuthorizationStreamSecret', programToken, newSecretSealed: 'sealed-2' } as const;
        spec.given(aProgram).when(rotate).thenThrows(AuthorizationStreamNotEnrolled);
        spec.given([...aProgram, enrolled('https://a.example/asa'), { type: 'AuthorizationStreamDisenrolled', data: { programToken } }]).when(rotate).thenThrows(AuthorizationStreamNotEnrolled);
      });

      it('disenrolls, once', () => {
        const disenrolled: ProgramEvent = { type: 'AuthorizationStreamDisenrolled', data: { programToken } };
        spec.given([...aProgram, enrolled('https://a.example/asa')]).when({ type: 'DisenrollAuthorizationStream', programToken }).then([disenrolled]);
        spec.given([...aProgram, enrolled('https://a.example/asa'), disenrolled]).when({ type: 'DisenrollAuthorizationStream', programToken }).then([]);
      });
    });

    it.each([
      ['an api key', { type: 'IssueApiKey', programToken, apiKey: { keyId: 'k', keyHash: 'h' } }],
      ['a key revocation', { type: 'RevokeApiKey', programToken, keyId: 'key-1' }],
      ['a funding source', addSource(savings)],
      ['a funding source change', updateSource(defaultFundingToken, { state: 'DELETED' })],
      ['a settings change', updateSettings({ state: 'PAUSED' })],
    ] as const)('answers not found to %s for a program that does not exist', (_what, command) => {
      spec.given([]).when(command).thenThrows(ProgramNotFound);
    });
  });

  describe('api keys', () => {
    it('issues another key', () => {
      spec
        .given(aProgram)
        .when({ type: 'IssueApiKey', programToken, apiKey: { keyId: 'key-2', keyHash: 'hash-of-key-2' } })
        .then([keyIssued('key-2')]);
    });

    it('revokes a key the program holds', () => {
      spec.given(aProgram).when({ type: 'RevokeApiKey', programToken, keyId: 'key-1' }).then([keyRevoked('key-1')]);
    });

    it('refuses to revoke a key the program never had', () => {
      spec.given(aProgram).when({ type: 'RevokeApiKey', programToken, keyId: 'key-9' }).thenThrows(ApiKeyNotFound, 'Api key key-9 not found');
    });

    it('refuses to revoke a key twice', () => {
      spec.given([...aProgram, keyRevoked('key-1')]).when({ type: 'RevokeApiKey', programToken, keyId: 'key-1' }).thenThrows(ApiKeyNotFound);
    });

    it('keeps the ids of the keys issued and not revoked', () => {
      expect(programAfter([...aProgram, keyIssued('key-2'), keyIssued('key-3'), keyRevoked('key-2')]).apiKeyIds).toEqual(['key-1', 'key-3']);
    });
  });

  describe('funding sources', () => {
    it('adds a funding source that is not the default, created now', () => {
      const { created: _created, ...source } = savings;
      spec.given(aProgram).when(addSource(source)).then([sourceAdded(savings, false)]);
    });

    it('keeps the default when another source is added', () => {
      const program = programAfter(withSavings);
      expect(program.defaultFundingToken).toBe(defaultFundingToken);
      expect(program.fundingSources).toEqual([defaultSource, savings]);
    });

    it('records a change of state', () => {
      spec.given(withSavings).when(updateSource(savingsToken, { state: 'ENABLED' })).then([sourceChanged(savingsToken, { state: 'ENABLED' })]);
    });

    it('records only the fields that changed', () => {
      spec
        .given(withSavings)
        .when(updateSource(savingsToken, { state: 'PENDING', nickname: 'holidays' }))
        .then([sourceChanged(savingsToken, { nickname: 'holidays' })]);
    });

    it('records nothing for an update that changes nothing', () => {
      spec.given(withSavings).when(updateSource(savingsToken, { state: 'PENDING', nickname: 'rainy day' })).then([]);
      spec.given(withSavings).when(updateSource(savingsToken, {})).then([]);
    });

    it('refuses to update a funding source the program does not have', () => {
      spec.given(aProgram).when(updateSource(foreignFundingToken, { state: 'DELETED' })).thenThrows(FundingSourceNotFound, `Funding source ${foreignFundingToken} not found`);
    });

    it('applies a change to that source only', () => {
      const program = programAfter([...withSavings, sourceChanged(savingsToken, { state: 'DISCONNECTED', nickname: 'old' })]);
      expect(program.fundingSources).toEqual([defaultSource, { ...savings, state: 'DISCONNECTED', nickname: 'old' }]);
    });
  });

  describe('settings', () => {
    it('records a change of state', () => {
      spec.given(aProgram).when(updateSettings({ state: 'PAUSED' })).then([settingsChanged({ state: 'PAUSED' })]);
    });

    it('records nothing when the state is already the one asked for', () => {
      spec.given(aProgram).when(updateSettings({ state: 'ACTIVE' })).then([]);
    });

    it('merges partial platform limits into the current ones and records the whole set', () => {
      spec
        .given([...aProgram, settingsChanged({ spendLimits: { transaction: 10_000, weekly: 0, monthly: 0 } })])
        .when(updateSettings({ spendLimits: { weekly: 50_000 } }))
        .then([settingsChanged({ spendLimits: { transaction: 10_000, weekly: 50_000, monthly: 0 } })]);
    });

    it('records nothing when the platform limits given are the current ones', () => {
      spec
        .given([...aProgram, settingsChanged({ spendLimits: { transaction: 10_000, weekly: 0, monthly: 0 } })])
        .when(updateSettings({ spendLimits: { transaction: 10_000, monthly: 0 } }))
        .then([]);
    });

    it('keeps a platform limit given as undefined', () => {
      spec
        .given([...aProgram, settingsChanged({ spendLimits: { transaction: 10_000, weekly: 0, monthly: 0 } })])
        .when(updateSettings({ spendLimits: { transaction: undefined, weekly: 50_000 } }))
        .then([settingsChanged({ spendLimits: { transaction: 10_000, weekly: 50_000, monthly: 0 } })]);
    });

    describe("Lithic's account limits (daily, lifetime)", () => {
      it('given no account limits, when a daily limit is set, then both are recorded and the platform limits are left out', () => {
        spec.given(aProgram).when(updateSettings({ accountSpendLimits: { daily: 5_000 } })).then([settingsChanged({ accountSpendLimits: { daily: 5_000, lifetime: 0 } })]);
      });

      it('given account limits, when one is changed, then the other is kept', () => {
        spec
          .given([...aProgram, settingsChanged({ accountSpendLimits: { daily: 5_000, lifetime: 90_000 } })])
          .when(updateSettings({ accountSpendLimits: { lifetime: 0 } }))
          .then([settingsChanged({ accountSpendLimits: { daily: 5_000, lifetime: 0 } })]);
      });

      it('given account limits, when the same ones are given, then nothing is recorded', () => {
        spec.given([...aProgram, settingsChanged({ accountSpendLimits: { daily: 5_000, lifetime: 0 } })]).when(updateSettings({ accountSpendLimits: { daily: 5_000, lifetime: undefined } })).then([]);
        spec.given(aProgram).when(updateSettings({ accountSpendLimits: { daily: 0, lifetime: 0 } })).then([]);
      });

      it('given a change of the platform limits alone, then the event carries no account limits (as before they existed)', () => {
        spec.given(aProgram).when(updateSettings({ spendLimits: { monthly: 7_000 } })).then([settingsChanged({ spendLimits: { transaction: 0, weekly: 0, monthly: 7_000 } })]);
      });

      it('folds the recorded account limits into the program, beside the platform limits', () => {
        const program = programAfter([...aProgram, settingsChanged({ spendLimits: { transaction: 1, weekly: 2, monthly: 3 } }), settingsChanged({ accountSpendLimits: { daily: 4, lifetime: 5 } })]);
        expect(program.spendLimits).toEqual({ transaction: 1, weekly: 2, monthly: 3 });
        expect(program.accountSpendLimits).toEqual({ daily: 4, lifetime: 5 });
      });
    });

    it('records a new velocity rule', () => {
      spec
        .given(aProgram)
        .when(updateSettings({ velocityRule: { maxAuthorizations: 5, windowSeconds: 60 } }))
        .then([settingsChanged({ velocityRule: { maxAuthorizations: 5, windowSeconds: 60 } })]);
    });

    it('records nothing when the velocity rule is the current one, whatever the order of its fields', () => {
      const given = [...aProgram, settingsChanged({ velocityRule: { maxAuthorizations: 5, windowSeconds: 60 } })];
      spec.given(given).when(updateSettings({ velocityRule: { maxAuthorizations: 5, windowSeconds: 60 } })).then([]);
      spec.given(given).when(updateSettings({ velocityRule: { windowSeconds: 60, maxAuthorizations: 5 } })).then([]);
    });

    it('switches the velocity rule off with null, once', () => {
      const given = [...aProgram, settingsChanged({ velocityRule: { maxAuthorizations: 5, windowSeconds: 60 } })];
      spec.given(given).when(updateSettings({ velocityRule: null })).then([settingsChanged({ velocityRule: null })]);
      spec.given(aProgram).when(updateSettings({ velocityRule: null })).then([]);
    });

    it('records a new merchant blocklist as a whole', () => {
      spec
        .given([...aProgram, settingsChanged({ blockedMerchants: ['CASINO'] })])
        .when(updateSettings({ blockedMerchants: ['CASINO', 'BETTING SHOP'] }))
        .then([settingsChanged({ blockedMerchants: ['CASINO', 'BETTING SHOP'] })]);
    });

    it('records nothing when the blocklist is the current one', () => {
      spec.given([...aProgram, settingsChanged({ blockedMerchants: ['CASINO'] })]).when(updateSettings({ blockedMerchants: ['CASINO'] })).then([]);
    });

    it('records only the settings that changed, in one event', () => {
      spec
        .given(aProgram)
        .when(updateSettings({ state: 'ACTIVE', spendLimits: { monthly: 0 }, velocityRule: { maxAuthorizations: 3, windowSeconds: 10 }, blockedMerchants: ['CASINO'] }))
        .then([settingsChanged({ velocityRule: { maxAuthorizations: 3, windowSeconds: 10 }, blockedMerchants: ['CASINO'] })]);
    });

    it('records nothing for an empty settings change', () => {
      spec.given(aProgram).when(updateSettings({})).then([]);
    });

    it('folds every settings change into the program', () => {
      const program = programAfter([
        ...aProgram,
        settingsChanged({ state: 'PAUSED', velocityRule: { maxAuthorizations: 3, windowSeconds: 10 } }),
        settingsChanged({ spendLimits: { transaction: 100, weekly: 200, monthly: 300 }, blockedMerchants: ['CASINO'] }),
        settingsChanged({ state: 'CLOSED', velocityRule: null }),
      ]);
      expect(program).toMatchObject({
        state: 'CLOSED',
        spendLimits: { transaction: 100, weekly: 200, monthly: 300 },
        velocityRule: null,
        blockedMerchants: ['CASINO'],
      });
    });
  });

  describe('resolveFundingSource', () => {
    it('gives the default funding source when none is named', () => {
      expect(resolveFundingSource(programAfter(withSavings), undefined)).toEqual(defaultSource);
    });

    it('gives the named funding source of the program', () => {
      expect(resolveFundingSource(programAfter(withSavings), savingsToken)).toEqual(savings);
    });

    it('refuses a funding source of another program as not found', () => {
      expect(() => resolveFundingSource(programAfter(withSavings), foreignFundingToken)).toThrow(FundingSourceNotFound);
      expect(() => resolveFundingSource(programAfter(withSavings), foreignFundingToken)).toThrow(`Funding source ${foreignFundingToken} not found`);
    });

    it('names funding_token as the field at fault', () => {
      expect(() => resolveFundingSource(programAfter(withSavings), foreignFundingToken)).toThrow(expect.objectContaining({ field: 'funding_token', kind: 'not_found' }));
    });
  });

  describe('isMerchantBlocked', () => {
    const blocking = (...blockedMerchants: string[]) => programAfter([...aProgram, settingsChanged({ blockedMerchants })]);

    it('blocks a merchant whose descriptor is on the list, ignoring case and surrounding spaces', () => {
      expect(isMerchantBlocked(blocking(' Casino Royale '), merchant('CASINO ROYALE'))).toBe(true);
      expect(isMerchantBlocked(blocking('CASINO ROYALE'), merchant('  casino royale'))).toBe(true);
    });

    it('blocks a merchant whose acceptor id is on the list, ignoring case', () => {
      expect(isMerchantBlocked(blocking('acq-77'), merchant('SOME SHOP', 'ACQ-77'))).toBe(true);
    });

    it('lets through a merchant whose descriptor and acceptor id are both off the list', () => {
      expect(isMerchantBlocked(blocking('CASINO ROYALE', 'ACQ-77'), merchant('COFFEE SHOP', 'ACQ-78'))).toBe(false);
    });

    it('does not block on part of a descriptor', () => {
      expect(isMerchantBlocked(blocking('CASINO'), merchant('CASINO ROYALE'))).toBe(false);
    });

    it('never matches a blank entry against a missing acceptor id', () => {
      expect(isMerchantBlocked(blocking('', '  '), merchant('COFFEE SHOP', ''))).toBe(false);
    });

    it('blocks nothing with an empty list', () => {
      expect(isMerchantBlocked(programAfter(aProgram), merchant('CASINO ROYALE', 'ACQ-77'))).toBe(false);
    });
  });
});
