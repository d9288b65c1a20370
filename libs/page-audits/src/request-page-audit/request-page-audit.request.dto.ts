import { ApiPropertyOptional } from '@nestjs/swagger';
import { registerDecorator, ValidateBy, type ValidationArguments } from 'class-validator';
import { Omittable } from '@libs/http';
import { MAX_AUDIT_URLS, urlProblem } from '../domain';

function urlsProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'urls must be an array of URLs';
  if (value.length < 1) return 'urls must list at least one URL';
  if (value.length > MAX_AUDIT_URLS) return `urls must list at most ${MAX_AUDIT_URLS} URLs (${value.length} given)`;
  for (let k = 0; k < value.length; k++) {
    const problem = urlProblem(value[k]);
    if (problem) return `urls[${k}] ${problem}`;
  }
  return null;
}

function sitemapProblem(value: unknown): string | null {
  if (value === true) return null;
  if (typeof value !== 'string') return 'sitemap must be true (the brand’s /sitemap.xml) or the sitemap’s URL';
  const problem = urlProblem(value);
  return problem ? `sitemap ${problem}` : null;
}

/** Exactly one of urls and sitemap (reported as the field `source`). */
function OneSource(): PropertyDecorator {
  const problem = (o: { urls?: unknown; sitemap?: unknown }) =>
    o.urls === undefined && o.sitemap === undefined ? 'give urls (1 to 1,000 page URLs) or sitemap (true, or its URL)' : o.urls !== undefined && o.sitemap !== undefined ? 'give urls or sitemap, not both' : null;
  return (target, propertyName) =>
    registerDecorator({
      name: 'oneSource',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => value === undefined && problem(args.object as object) === null,
        defaultMessage: (args: ValidationArguments) => (args.value !== undefined ? 'source is not a field' : (problem(args.object as object) ?? '')),
      },
    });
}

export class RequestPageAuditRequest {
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: MAX_AUDIT_URLS, description: `The pages to audit: 1 to ${MAX_AUDIT_URLS} absolute http(s) URLs`, example: ['https://acme-crm.com/pricing', 'https://acme-crm.com/features'] })
  @Omittable()
  @ValidateBy({ name: 'auditUrls', validator: { validate: (v: unknown) => urlsProblem(v) === null, defaultMessage: (a?: ValidationArguments) => urlsProblem(a?.value) ?? 'urls are not valid' } })
  urls?: string[];

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean', enum: [true] }, { type: 'string', format: 'uri' }],
    description: "Audit the pages a sitemap lists: true for the brand's https://<domain>/sitemap.xml, or the sitemap's URL (a sitemap index is followed; at most 1,000 pages)",
    example: true,
  })
  @Omittable()
  @ValidateBy({ name: 'auditSitemap', validator: { validate: (v: unknown) => sitemapProblem(v) === null, defaultMessage: (a?: ValidationArguments) => sitemapProblem(a?.value) ?? 'sitemap is not valid' } })
  sitemap?: true | string;

  /** Not a field: where the rule "urls or sitemap" reports. */
  @OneSource()
  source?: never;
}
