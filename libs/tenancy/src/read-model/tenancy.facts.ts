/**
 * The reads other concerns make of tenancy's tables (issue 30: the SQL stays with the tables'
 * owner; a consumer runs the statement on its own connection or transaction and maps the rows).
 */

/** A statement and its parameters. */
export interface TenancyFactsStatement {
  text: string;
  params: unknown[];
}

/** A row of `organizationFacts`: an organisation, as `organizations` holds it (no row: there is no such organisation). */
export interface OrganizationFactRow {
  id: string;
  tier: string;
}

/** The organisation of that id: one row when it exists, none otherwise. */
export function organizationFacts(organizationId: number): TenancyFactsStatement {
  return { text: 'SELECT id, tier FROM organizations WHERE id = $1', params: [organizationId] };
}

/** A row of `clientBrandDomainFacts`: a brand's id and domains, as `brands` holds them. */
export interface BrandDomainsFactRow {
  id: string;
  domain: string;
  extra_domains: string[];
}

/** The brands of a client of the organisation, by id, with their domains. */
export function clientBrandDomainFacts(organizationId: number, clientId: number): TenancyFactsStatement {
  return { text: 'SELECT id, domain, extra_domains FROM brands WHERE organization_id = $1 AND client_id = $2 ORDER BY id', params: [organizationId, clientId] };
}
