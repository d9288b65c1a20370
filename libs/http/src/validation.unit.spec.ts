import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { ApiError } from './api-error';
import { ValidatedQueryMemo, createValidationPipe } from './validation';

class ColourQuery {
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',') : value))
  @IsIn(['red', 'green'], { each: true })
  colour?: string[];

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10)
  size: number = 5;
}

const asQuery = { type: 'query' as const, metatype: ColourQuery, data: undefined };

describe('validation pipe', () => {
  it('given a repeated query, when validated again, then each request gets an equal DTO of its own', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ colour: 'red,green', size: '3' }, asQuery)) as ColourQuery;
    first.colour!.push('mutated');
    first.size = 9;
    const second = (await pipe.transform({ colour: 'red,green', size: '3' }, asQuery)) as ColourQuery;
    expect(second).toBeInstanceOf(ColourQuery);
    expect({ ...second }).toEqual({ colour: ['red', 'green'], size: 3 });
    const third = (await pipe.transform({ colour: 'red,green', size: '3' }, asQuery)) as ColourQuery;
    expect(third).not.toBe(second);
    expect(third.colour).not.toBe(second.colour);
  });

  it('given an invalid query, when sent again, then it is refused again with the same problems', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      const error = await pipe.transform({ colour: 'blue', size: '30' }, asQuery).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getResponse()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      const fields = ((error as ApiError).getResponse() as { error: { details: { fields: { field: string }[] } } }).error.details.fields;
      expect(fields.map((f) => f.field).sort()).toEqual(['colour', 'size']);
    }
  });

  it('given an unknown field after a valid query was remembered, then the unknown field is still refused', async () => {
    const pipe = createValidationPipe();
    await pipe.transform({ colour: 'red' }, asQuery);
    await expect(pipe.transform({ colour: 'red', extra: '1' }, asQuery)).rejects.toBeInstanceOf(ApiError);
  });

  it('given the same values under another DTO class, then that class validates them itself', async () => {
    class OtherQuery {
      @IsOptional()
      @IsIn(['blue'])
      colour?: string;
    }
    const pipe = createValidationPipe();
    await pipe.transform({ colour: 'red' }, asQuery);
    await expect(pipe.transform({ colour: 'red' }, { type: 'query', metatype: OtherQuery, data: undefined })).rejects.toBeInstanceOf(ApiError);
  });
});

describe('ValidatedQueryMemo', () => {
  it('keeps at most its capacity per class, dropping the least recently used first', () => {
    const memo = new ValidatedQueryMemo(2);
    memo.set(ColourQuery, 'a', { n: 1 });
    memo.set(ColourQuery, 'b', { n: 2 });
    expect(memo.get(ColourQuery, 'a')).toEqual({ n: 1 }); // a is now the most recent
    memo.set(ColourQuery, 'c', { n: 3 });
    expect(memo.get(ColourQuery, 'b')).toBeUndefined();
    expect(memo.get(ColourQuery, 'a')).toEqual({ n: 1 });
    expect(memo.get(ColourQuery, 'c')).toEqual({ n: 3 });
  });
});
