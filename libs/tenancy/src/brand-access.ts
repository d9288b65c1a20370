import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '@libs/http';
import { TenancyRepository, type Brand, type TenantScope } from './tenancy.repository';

/** Whose a brand is. A brand never changes organisation or client, so this is cached for good. */
export interface BrandOwner {
  organizationId: number;
  clientId: number | null;
}

/** A brand a caller may see, as every read names it: its id and whose it is. */
export interface BrandRef extends BrandOwner {
  id: number;
}

/** Runs a statement: a DataSource's or a projection batch's `query`. */
export type QueryFn = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

const CACHE_LIMIT = 100_000;

/**
 * Owners already read through a given `query` (a projection batch's: the runner makes one per
 * batch, so this lives as long as the batch). A brand never changes organisation or client and is
 * never deleted, so an owner read once is the owner every later read would find; a brand not found
 * is not remembered (it may be created before the next read).
 */
const ownersRead = new WeakMap<QueryFn, Map<number, BrandOwner>>();

/**
 * The owners (organisation, client) of the given brands, read in one statement. For projectors,
 * which read it inside their batch transaction and store the client with every row they write.
 * The members of a projection group share their batch's `query`: a brand read by one member is not
 * read again by the next (one lookup per batch instead of one per member).
 */
export async function brandOwners(query: QueryFn, brandIds: readonly number[]): Promise<Map<number, BrandOwner>> {
  const owners = new Map<number, BrandOwner>();
  if (!brandIds.length) return owners;
  let known = ownersRead.get(query);
  if (!known) ownersRead.set(query, (known = new Map()));
  const missing: number[] = [];
  for (const id of new Set(brandIds)) {
    const owner = known.get(id);
    if (owner) owners.set(id, owner);
    else missing.push(id);
  }
  if (!missing.length) return owners;
  const rows = await query<{ id: string; organization_id: string; client_id: string | null }>('SELECT id, organization_id, client_id FROM brands WHERE id = ANY($1::bigint[])', [missing]);
  for (const r of rows) {
    const owner = { organizationId: Number(r.organization_id), clientId: r.client_id === null ? null : Number(r.client_id) };
    owners.set(Number(r.id), owner);
    known.set(Number(r.id), owner);
  }
  return owners;
}

/**
 * The one door to brands for every concern: may this caller see this brand (its organisation, and
 * its client for a client-bound credential)? Another tenant's brand is a 404, exactly like a brand
 * that does not exist, never a 403 or an empty answer.
 */
@Injectable()
export class BrandAccess {
  private readonly owners = new Map<number, BrandOwner>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyRepository,
  ) {}

  /** Who owns the brand (cached), or null when there is no such brand. */
  async ownerOf(brandId: number): Promise<BrandOwner | null> {
    const cached = this.owners.get(brandId);
    if (cached) return cached;
    const found = (await brandOwners((text, params) => this.dataSource.query(text, params), [brandId])).get(brandId) ?? null;
    if (found) {
      if (this.owners.size >= CACHE_LIMIT) this.owners.clear();
      this.owners.set(brandId, found);
    }
    return found;
  }

  /** The client a brand belongs to (null: the organisation's own), or undefined when there is no such brand. */
  async clientOf(brandId: number): Promise<number | null | undefined> {
    const owner = await this.ownerOf(brandId);
    return owner === null ? undefined : owner.clientId;
  }

  /** Whether the caller may see the brand. */
  async canSee(scope: TenantScope, brandId: number): Promise<boolean> {
    const owner = await this.ownerOf(brandId);
    return owner !== null && owner.organizationId === scope.organizationId && (scope.clientId === null || owner.clientId === scope.clientId);
  }

  /** Whether the caller may see a resource of a brand that names its organisation (an opportunity, a run…). */
  async canSeeResource(scope: TenantScope, resource: { organizationId: number; brandId: number }): Promise<boolean> {
    return resource.organizationId === scope.organizationId && this.canSee(scope, resource.brandId);
  }

  /** 404 `Brand {id}` unless the caller may see the brand (for a `brandId` filter or body field). */
  async assertVisible(scope: TenantScope, brandId: number): Promise<void> {
    if (!(await this.canSee(scope, brandId))) throw ApiError.notFound(`Brand ${brandId}`);
  }

  /**
   * The brand a read is about, as `{id, organizationId, clientId}`: 404 `Brand {id}` unless the
   * caller may see it, and, when the request names `clientId`, 404 `Client {id}` unless the caller
   * may see that client, and `Brand {id}` unless the brand is that client's. One read of the brand
   * row, cached (`ownerOf`); the client is read only when the answer is a 404 (a brand of that client
   * proves the client is the caller's: brands reference their client within the organisation).
   */
  async scopeOf(scope: TenantScope, q: { brandId: number; clientId?: number }): Promise<BrandRef> {
    const owner = await this.ownerOf(q.brandId);
    const visible = owner !== null && owner.organizationId === scope.organizationId && (scope.clientId === null || owner.clientId === scope.clientId);
    if (visible && (q.clientId === undefined || owner.clientId === q.clientId)) return { id: q.brandId, organizationId: owner.organizationId, clientId: owner.clientId };
    if (q.clientId !== undefined && !(await this.tenancy.canSeeClient(scope, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    throw ApiError.notFound(`Brand ${q.brandId}`);
  }

  /** The brand, or 404 when the caller may not see it. */
  async resolve(scope: TenantScope, brandId: number): Promise<Brand> {
    const brand = (await this.canSee(scope, brandId)) ? await this.tenancy.findBrand(scope, brandId) : null;
    if (!brand) throw ApiError.notFound(`Brand ${brandId}`);
    return brand;
  }
}
