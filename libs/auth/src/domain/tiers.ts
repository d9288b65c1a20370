/** Rate-limit tiers (the contract's Limits table). */
export const TIERS = ['free', 'standard', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface TierLimits {
  perMinute: number;
  perDay: number;
  burst: number;
}

export const TIER_LIMITS: Record<Tier, TierLimits> = {
  free: { perMinute: 60, perDay: 1_000, burst: 10 },
  standard: { perMinute: 300, perDay: 10_000, burst: 50 },
  professional: { perMinute: 600, perDay: 50_000, burst: 100 },
  enterprise: { perMinute: 1_200, perDay: 200_000, burst: 200 },
};

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
