import type { Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { blockedUrlReason } from '@libs/egress';
import type { Webhook, WebhookScope, WebhooksRepository } from './webhooks.repository';

export const scopeOf = (p: Principal): WebhookScope => ({ organizationId: p.organizationId, clientId: p.clientId });

/** The caller's subscription, or 404 (another tenant's is as missing as one that never existed). */
export async function webhookOr404(webhooks: WebhooksRepository, p: Principal, id: number): Promise<Webhook> {
  const webhook = await webhooks.find(scopeOf(p), id);
  if (!webhook) throw ApiError.notFound(`Webhook ${id}`);
  return webhook;
}

/** The URL, normalised, after the SSRF check (its host resolved now; checked again at every connect). */
export async function checkedWebhookUrl(text: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The validator's URL syntax is looser than WHATWG's (a bad IDNA label, an IPv6 zone id).
    throw ApiError.validation([{ field: 'url', message: 'url must be an http or https URL' }]);
  }
  if (url.username || url.password) throw ApiError.validation([{ field: 'url', message: 'url must not carry credentials; send them in a custom header' }]);
  const reason = await blockedUrlReason(url, allowPrivate);
  if (reason) throw ApiError.validation([{ field: 'url', message: reason }]);
  return url.toString();
}
