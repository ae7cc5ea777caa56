import 'reflect-metadata';
import { CreateCardRequest, SimulateAuthorizeRequest, UpdateAccountRequest, UpdateCardRequest } from '@ledger/contracts';
import { RequestInvalid } from './errors';
import { StrictValidationPipe } from './strict-validation.pipe';

const pipe = new StrictValidationPipe();

/** The sentences a body is refused with, or [] when it passes. */
async function problems(dto: Function, body: unknown): Promise<string[]> {
  try {
    await pipe.transform(body, { type: 'body', metatype: dto as never });
    return [];
  } catch (error) {
    if (!(error instanceof RequestInvalid)) throw error;
    return error.message.split('; ');
  }
}

describe('StrictValidationPipe on the DTOs of the contracts', () => {
  it('accepts a body of the documented shape, null where documented nullable', async () => {
    expect(await problems(UpdateAccountRequest, { velocity_limit: { max_authorizations: 5, window_seconds: 60 }, blocked_merchants: ['x'] })).toEqual([]);
    expect(await problems(UpdateAccountRequest, { velocity_limit: null })).toEqual([]);
  });

  it('names each field of the wrong kind once, at any depth, and a list by its first wrong item', async () => {
    expect(await problems(UpdateAccountRequest, { state: 7, velocity_limit: [], blocked_merchants: {} })).toEqual([
      'state must be one of ACTIVE, PAUSED, CLOSED, not a number',
      'velocity_limit must be an object, not a list',
      'blocked_merchants must be a list of strings, not an object',
    ]);
    expect(await problems(UpdateAccountRequest, { velocity_limit: { max_authorizations: '1', window_seconds: 60 }, blocked_merchants: ['x', 2, true] })).toEqual([
      'velocity_limit.max_authorizations must be an integer from 1 to 100, not a string',
      'blocked_merchants[1] must be a string, not a number',
    ]);
    expect(await problems(SimulateAuthorizeRequest, { amount: '100', descriptor: 'Shop', pan: '4111111111111111' })).toEqual(['amount must be an integer of 0 or more, not a string']);
  });

  it('names unknown, missing and null fields, nested ones by their path', async () => {
    expect(await problems(CreateCardRequest, { extra: 1, memo: null })).toEqual(['extra is not a known field', 'type is required and must be one of SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET, UNLOCKED, VIRTUAL, PHYSICAL', 'memo must not be null']);
    expect(await problems(UpdateCardRequest, { funding_token: null })).toEqual(['funding_token must not be null']);
    expect(await problems(UpdateAccountRequest, { velocity_limit: { max_authorizations: 1, window_seconds: 1, more: true } })).toEqual(['velocity_limit.more is not a known field']);
  });

  it('names a key class-transformer would drop without a word (an Object.prototype member name), at any depth, unless its field is refused whole', async () => {
    expect(await problems(CreateCardRequest, { type: 'SINGLE_USE', toString: {}, hasOwnProperty: 1 })).toEqual(['toString is not a known field', 'hasOwnProperty is not a known field']);
    expect(await problems(UpdateAccountRequest, { velocity_limit: { max_authorizations: 1, window_seconds: 1, valueOf: 2 } })).toEqual(['velocity_limit.valueOf is not a known field']);
    expect(await problems(CreateCardRequest, { toString: 1 })).toEqual(['toString is not a known field', 'type is required and must be one of SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET, UNLOCKED, VIRTUAL, PHYSICAL']);
    expect(await problems(CreateCardRequest, { type: 'SINGLE_USE', memo: { toString: 1 } })).toEqual(['memo must be a string, not an object']);
  });

  it('gives a field its first broken rule only, after its kind', async () => {
    expect(await problems(UpdateAccountRequest, { velocity_limit: { max_authorizations: 0, window_seconds: 86_401 } })).toEqual([
      'velocity_limit.max_authorizations must not be less than 1',
      'velocity_limit.window_seconds must not be greater than 86400',
    ]);
  });

  it('refuses a body that is not a JSON object', async () => {
    expect(await problems(CreateCardRequest, [])).toEqual(['Request body must be a JSON object']);
  });
});
