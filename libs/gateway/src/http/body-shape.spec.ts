import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { BodyContractError, bodyShapeOf, shapeProblems } from './body-shape';

class Inner {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IsInt()
  count!: number;
}

class Outer {
  @ApiProperty({ enum: ['A', 'B'] })
  @IsString()
  kind!: string;

  @ApiPropertyOptional({ type: Inner, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => Inner)
  inner?: Inner | null;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsString({ each: true })
  names?: string[];
}

describe('body shapes', () => {
  const problems = (body: Record<string, unknown>) => [...shapeProblems(body, bodyShapeOf(Outer)).values()];

  it('accepts a body of the documented shape', () => {
    expect(problems({ kind: 'A', inner: { count: 1 }, names: ['x'] })).toEqual([]);
    expect(problems({ kind: 'A', inner: null })).toEqual([]);
  });

  it('names each field of the wrong kind once, at any depth, and a list by its first wrong item', () => {
    expect(problems({ kind: 7, inner: [], names: {} })).toEqual(['kind must be one of A, B, not a number', 'inner must be an object, not a list', 'names must be a list of strings, not an object']);
    expect(problems({ kind: 'A', inner: { count: '1' }, names: ['x', 2, true] })).toEqual(['inner.count must be an integer of 1 or more, not a string', 'names[1] must be a string, not a number']);
  });

  it('names unknown, missing and null fields', () => {
    expect(problems({ extra: 1, names: null })).toEqual(['extra is not a known field', 'kind is required and must be one of A, B', 'names must not be null']);
    expect(problems({ kind: 'A', inner: { count: 1, more: true } })).toEqual(['inner.more is not a known field']);
  });

  it.each([
    [
      'a required field marked @IsOptional',
      (() => {
        class Bad {
          @ApiProperty({ type: Inner })
          @Type(() => Inner)
          @IsOptional()
          inner!: Inner;
        }
        return Bad;
      })(),
      /Bad.inner: documented as required but @IsOptional/,
    ],
    [
      'a nested DTO without @ValidateNested',
      (() => {
        class NotNested {
          @ApiProperty({ type: Inner })
          @Type(() => Inner)
          @IsInt()
          inner!: Inner;
        }
        return NotNested;
      })(),
      /NotNested.inner: a nested DTO needs @ValidateNested/,
    ],
    [
      'a nested DTO without @Type',
      (() => {
        class Untyped {
          @ApiProperty({ type: Inner })
          @ValidateNested()
          inner!: Inner;
        }
        return Untyped;
      })(),
      /Untyped.inner: a nested DTO needs @Type/,
    ],
    [
      'a property of no documented kind',
      (() => {
        class Vague {
          @ApiProperty({ type: Object })
          @IsString()
          value!: unknown;
        }
        return Vague;
      })(),
      /Vague.value: its documented type Object gives no JSON kind/,
    ],
    [
      'a validated property left undocumented',
      (() => {
        class Hidden {
          @IsString()
          secret!: string;
        }
        return Hidden;
      })(),
      /Hidden.secret: validated but not documented/,
    ],
    [
      'an optional field documented as required',
      (() => {
        class Disagree {
          @ApiPropertyOptional()
          @IsString()
          text?: string;
        }
        return Disagree;
      })(),
      /Disagree.text: documented as optional but not @IsOptional/,
    ],
  ])('refuses to describe %s', (_, dto, message) => {
    expect(() => bodyShapeOf(dto)).toThrow(BodyContractError);
    expect(() => bodyShapeOf(dto)).toThrow(message);
  });
});
