/** The kinds of channel (DESIGN §13.3): connected sources, uploads, and the built-in AI referrals. */
export const CHANNEL_KINDS = ['ga4', 'search_console', 'import', 'ai_referrals'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Kinds a caller may create (`ai_referrals` is built in for every client with AI referral visits). */
export const CREATABLE_KINDS = ['ga4', 'search_console', 'import'] as const satisfies readonly ChannelKind[];
export type CreatableKind = (typeof CREATABLE_KINDS)[number];

/** Kinds that sync from an outside API with service-account credentials. */
export const CONNECTED_KINDS = ['ga4', 'search_console'] as const satisfies readonly ChannelKind[];
export type ConnectedKind = (typeof CONNECTED_KINDS)[number];

export function isConnectedKind(kind: string): kind is ConnectedKind {
  return (CONNECTED_KINDS as readonly string[]).includes(kind);
}

/** Kinds whose rows come from a scheduled sync. */
export function syncs(kind: ChannelKind): boolean {
  return kind !== 'import';
}
