import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, Min, validate } from 'class-validator';
import * as contracts from '@ledger/contracts';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  name!: string;
}

class Derived extends Base {
  @IsInt()
  count!: number;
}

describe('cacheValidationMetadata', () => {
  const storage = getMetadataStorage();
  const dtos = [Base, Derived, ...Object.values(contracts).filter((value): value is new () => object => typeof value === 'function')];
  const lookUp = (target: new () => object) => storage.getTargetValidationMetadatas(target, '', false, false, undefined);
  const before = new Map(dtos.map((dto) => [dto, lookUp(dto)]));
  cacheValidationMetadata();

  it('answers every class its own and inherited rules, as class-validator found them', () => {
    expect(dtos.length).toBeGreaterThan(50);
    for (const dto of dtos) expect(lookUp(dto)).toEqual(before.get(dto));
    expect(lookUp(Derived).map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
  });

  it('answers a repeat from memory, grouping included', () => {
    expect(lookUp(Derived)).toBe(lookUp(Derived));
    expect(storage.groupByPropertyName(lookUp(Derived))).toBe(storage.groupByPropertyName(lookUp(Derived)));
  });

  it('sees a rule registered after a lookup', async () => {
    const derived = Object.assign(new Derived(), { name: 'a', count: 0 });
    expect(await validate(derived)).toEqual([]);
    Min(1)(Derived.prototype, 'count');
    expect((await validate(derived)).map((error) => error.property)).toEqual(['count']);
  });
});
