import { AnswerHistorySeeder, PROVIDERS, TrackedPromptsRepository } from '@libs/analysis';
import type { EventStore } from '@libs/event-store';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository, type Brand, type Competitor } from '@libs/tenancy';
import type { DataSource } from 'typeorm';

/**
 * The answers of the analytics benchmarks: `brands` brands (three competitors each) × `prompts`
 * tracked prompts × 4 providers × `days` days up to yesterday (`runsPerDay` runs a day, default 1), written through the event store by
 * the seeder `npm start` uses (recorded and analysed answers, their runs).
 */
export async function seedAnswerHistory(ds: DataSource, store: EventStore, organizationId: number, size: { brands: number; prompts: number; days: number; runsPerDay?: number }): Promise<{ brands: (Brand & { competitors: Competitor[] })[]; answers: number; yesterday: string }> {
  const tenancy = new TenancyRepository(ds);
  const seeder = new AnswerHistorySeeder(ds, store);
  const prompts = new TrackedPromptsRepository(ds);
  const yesterday = addDays(utcDay(Date.now()), -1);
  const brands: (Brand & { competitors: Competitor[] })[] = [];
  let answers = 0;
  for (let b = 0; b < size.brands; b++) {
    const brand = await tenancy.createBrand({ organizationId, name: `Brand ${b}`, domain: `brand${b}.example`, competitors: [1, 2, 3].map((c) => ({ name: `Rival ${b}-${c}`, domain: `rival${b}-${c}.example` })) });
    brands.push(brand);
    const added = [];
    for (let k = 0; k < size.prompts; k++) {
      const r = await prompts.add(brand, { query: `question ${k} about brand ${b}`, topic: null, tags: [], providers: [...PROVIDERS], isActive: false });
      if ('prompt' in r) added.push(r.prompt);
    }
    answers += (await seeder.seed({ organizationId, tracked: { brand, competitors: brand.competitors }, prompts: added, days: size.days, runsPerDay: size.runsPerDay ?? 1, lastDay: new Date(`${yesterday}T12:00:00Z`) })).answers;
  }
  return { brands, answers, yesterday };
}
