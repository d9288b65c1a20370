import { ApiError, type FieldProblem } from '@libs/http';
import { BrandAccess, TenancyRepository, type TenantScope } from '@libs/tenancy';
import type { ChannelKind } from './domain';
import { serviceAccountKey, serviceAccountProblems } from './shared/connectors/service-account';
import type { CredentialsBox } from './credentials-box';

export const PROPERTY_ID = /^[0-9]{1,20}$/;
export const SITE_URL = /^(sc-domain:[a-z0-9.-]{1,253}|https?:\/\/[^\s/?#]{1,253}\/)$/i;
export const MAX_BACKFILL_DAYS = 730;

/** What a kind needs: ga4 a property id and credentials, search_console a site URL and credentials, import neither. */
export function kindProblems(kind: ChannelKind, v: { propertyId?: string | null; siteUrl?: string | null; credentials?: unknown }, creating: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const needs = (field: string, present: boolean, message: string) => !present && creating && problems.push({ field, message });
  const forbids = (field: string, present: boolean) => present && problems.push({ field, message: `${field} does not apply to a ${kind} channel` });
  if (kind === 'ga4') {
    needs('propertyId', Boolean(v.propertyId), 'propertyId is required for a ga4 channel');
    forbids('siteUrl', v.siteUrl !== undefined && v.siteUrl !== null);
  } else if (kind === 'search_console') {
    needs('siteUrl', Boolean(v.siteUrl), 'siteUrl is required for a search_console channel');
    forbids('propertyId', v.propertyId !== undefined && v.propertyId !== null);
  } else {
    forbids('propertyId', v.propertyId !== undefined && v.propertyId !== null);
    forbids('siteUrl', v.siteUrl !== undefined && v.siteUrl !== null);
    forbids('credentials', v.credentials !== undefined);
  }
  if (kind === 'ga4' || kind === 'search_console') {
    needs('credentials', v.credentials !== undefined, `credentials (a service-account key) are required for a ${kind} channel`);
    if (v.credentials !== undefined) for (const message of serviceAccountProblems(v.credentials)) problems.push({ field: 'credentials', message });
  }
  return problems;
}

/** The sealed form of checked credentials (only the fields a connector uses are kept). */
export function sealCredentials(box: CredentialsBox, credentials: unknown): string {
  return box.seal(JSON.stringify(serviceAccountKey(credentials as Record<string, unknown>)));
}

/** 404 unless the caller may see the client; 404 unless the brand is the client's. */
export async function assertClientAndBrand(tenancy: TenancyRepository, brands: BrandAccess, scope: TenantScope, clientId: number, brandId: number | null | undefined): Promise<void> {
  if (!(await tenancy.canSeeClient(scope, clientId))) throw ApiError.notFound(`Client ${clientId}`);
  if (brandId !== undefined && brandId !== null) {
    const owner = await brands.ownerOf(brandId);
    if (!owner || owner.organizationId !== scope.organizationId || owner.clientId !== clientId) throw ApiError.notFound(`Brand ${brandId}`);
  }
}
