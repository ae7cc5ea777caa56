import { RequestInvalid } from './errors';
import { firstNonIntegerField, refuseNonIntegerLiterals } from './integer-literals';

describe('numbers judged as written', () => {
  it('names the first number written with a fraction or an exponent that parses to an integer, at any depth', () => {
    expect(firstNonIntegerField('{"amount":0.99999999999999999}')).toBe('amount');
    expect(firstNonIntegerField('{"a":1,"spend_limit":{"weekly":2,"monthly":1e2}}')).toBe('spend_limit.monthly');
    expect(firstNonIntegerField('{"list":[1,2,-3E-400]}')).toBe('list[2]');
    expect(firstNonIntegerField('{"a":[{"b":[0,{"c":1.0}]}]}')).toBe('a[0].b[1].c');
    expect(firstNonIntegerField('[5, 1.0]')).toBe('[1]');
    expect(firstNonIntegerField('{"a":1.5,"b":2.000000000000000001}')).toBe('b');
    expect(firstNonIntegerField('{"we\\"ird":1e1}')).toBe('we"ird');
  });

  it('passes integers, fractions and exponents that are only text in strings, and numbers left to validation (1.5, 1e400)', () => {
    expect(firstNonIntegerField('{"amount":100,"n":-0,"memo":"1.5 and 2e3","pan":"4242","ok":true,"no":null,"x":[ 1 , 2 ]}')).toBeNull();
    expect(() => refuseNonIntegerLiterals('{"descriptor":"v1.2","amount":7}')).not.toThrow();
    expect(() => refuseNonIntegerLiterals('{"amount":7}')).not.toThrow();
    expect(firstNonIntegerField('{"amount":1.5,"limit":1e400}')).toBeNull();
  });

  it('refuses with a RequestInvalid that names the field', () => {
    expect(() => refuseNonIntegerLiterals('{"amount":1e-400}')).toThrow(new RequestInvalid('amount must be an integer, written without a fraction or an exponent'));
  });
});
