import 'reflect-metadata';
import { ApiError } from '../api-error';
import { createValidationPipe } from '../validation';
import { BrandPeriodPageQuery, BrandPeriodQuery, resolveBrandPeriod } from './brand-period.query';

const pipe = createValidationPipe();
const validate = (query: Record<string, unknown>, metatype: typeof BrandPeriodQuery = BrandPeriodQuery) =>
  pipe.transform(query, { type: 'query', metatype, data: undefined }) as Promise<BrandPeriodQuery>;

async function problems(query: Record<string, unknown>): Promise<{ field: string; message: string }[]> {
  try {
    await validate(query);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const body = (e as ApiError).body();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect((e as ApiError).getStatus()).toBe(400);
    return (body.error.details as { fields: { field: string; message: string }[] }).fields;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('brand-period query', () => {
  const today = '2026-11-24';

  it('defaults to the last 30 days, today included', async () => {
    const q = await validate({ brandId: '7' });
    expect(resolveBrandPeriod(q, today)).toEqual({ brandId: 7, start: '2026-10-26', end: '2026-11-24', days: 30 });
  });

  it('takes days, or a start and an end, or one of them (30 days from or to it), and the filters', async () => {
    expect(resolveBrandPeriod(await validate({ brandId: '7', days: '1' }), today)).toMatchObject({ start: today, end: today, days: 1 });
    expect(resolveBrandPeriod(await validate({ brandId: '7', startDate: '2024-02-28', endDate: '2024-03-01' }), today)).toMatchObject({ start: '2024-02-28', end: '2024-03-01', days: 3 });
    expect(resolveBrandPeriod(await validate({ brandId: '7', startDate: '2026-01-01' }), today)).toMatchObject({ end: '2026-01-30', days: 30 });
    expect(resolveBrandPeriod(await validate({ brandId: '7', endDate: '2026-01-30' }), today)).toMatchObject({ start: '2026-01-01', days: 30 });
    const filtered = resolveBrandPeriod(await validate({ brandId: '7', provider: 'claude', promptId: '3', topic: 'crm' }), today);
    expect(filtered).toMatchObject({ provider: 'claude', promptId: 3, topic: 'crm' });
    expect(resolveBrandPeriod(await validate({ brandId: '7', startDate: '2025-01-01', endDate: '2026-01-01' }), today).days).toBe(366);
  });

  it.each([
    [{}, 'brandId'],
    [{ brandId: '0' }, 'brandId'],
    [{ brandId: '0x10' }, 'brandId'],
    [{ brandId: '7', startDate: '2026-02-30' }, 'startDate'],
    [{ brandId: '7', endDate: '26-01-01' }, 'endDate'],
    [{ brandId: '7', startDate: '2026-01-01T00:00:00Z' }, 'startDate'],
    [{ brandId: '7', days: '0' }, 'days'],
    [{ brandId: '7', days: '367' }, 'days'],
    [{ brandId: '7', days: '1e2' }, 'days'],
    [{ brandId: '7', days: '7', startDate: '2026-01-01' }, 'period'],
    [{ brandId: '7', days: '7', endDate: '2026-01-01' }, 'period'],
    [{ brandId: '7', startDate: '2026-01-02', endDate: '2026-01-01' }, 'period'],
    [{ brandId: '7', startDate: '2025-01-01', endDate: '2026-01-02' }, 'period'],
    [{ brandId: '7', period: 'x' }, 'period'],
    [{ brandId: '7', provider: 'bard' }, 'provider'],
    [{ brandId: '7', promptId: '-1' }, 'promptId'],
    [{ brandId: '7', topic: 'x'.repeat(201) }, 'topic'],
    [{ brandId: '7', colour: 'red' }, 'colour'],
  ])('refuses %j with a 400 naming %s', async (query, field) => {
    const found = await problems(query);
    expect(found.map((p) => p.field)).toContain(field);
  });

  it('paginates with the house bounds', async () => {
    const q = (await validate({ brandId: '7', limit: '20' }, BrandPeriodPageQuery)) as BrandPeriodPageQuery;
    expect([q.limit, q.offset]).toEqual([20, 0]);
    await expect(validate({ brandId: '7', limit: '201' }, BrandPeriodPageQuery)).rejects.toBeInstanceOf(ApiError);
  });
});
