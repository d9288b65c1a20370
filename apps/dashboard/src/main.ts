import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html';
import { api, ApiError, clearCache, onUnauthorized } from './api';
import { forgetKey, storedKey, storeKey, type KeyInfo } from './session';
import { interceptLinks, navigate, pathFor, useRoute, type Route } from './router';
import { periodOf } from './period';
import { useApi } from './use-api';
import { Layout, type Brand } from './components/layout';
import { ErrorBox, Loading } from './components/states';
import { OverviewPage } from './pages/overview';
import { AnswersPage } from './pages/answers';
import { CitationsPage } from './pages/citations';
import { BotsPage } from './pages/bots';
import { ChannelsPage } from './pages/channels';
import { OpportunitiesPage } from './pages/opportunities';
import { OpportunityPage } from './pages/opportunity';
import { WebhooksPage } from './pages/webhooks';
import type { PageProps } from './pages/page-props';

function SignIn({ onSignedIn, notice }: { onSignedIn: (key: string, info: KeyInfo) => void; notice: string | null }) {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem('apiKey') as HTMLInputElement;
    const key = input.value.trim();
    if (!key) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.validate<{ data: KeyInfo }>(key);
      input.value = '';
      onSignedIn(key, res.data);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'CLIENT_ERROR', String(err), null, null));
    } finally {
      setBusy(false);
    }
  };
  return html`<main id="main" class="signin">
    <form class="card signin-card" onSubmit=${submit} aria-describedby="signin-help">
      <h1><span class="logo" aria-hidden="true">◎</span> AI visibility</h1>
      <p id="signin-help">Paste an API key of your organisation. It stays in this tab only (session storage) and is sent to this server's API as the <code>X-API-Key</code> header; signing out forgets it.</p>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
      <label class="field"><span>API key</span><input name="apiKey" type="password" autocomplete="off" spellcheck="false" required placeholder="ak_live_…" /></label>
      <button class="button primary" type="submit" disabled=${busy}>${busy ? 'Checking…' : 'Sign in'}</button>
      ${error ? html`<${ErrorBox} error=${error} title="The key was not accepted" />` : null}
    </form>
  </main>`;
}

function NotFound({ what }: { what: string }) {
  return html`<section class="card not-found" role="alert"><h1>Not found</h1><p>${what}</p><p><a href="/app">Go to your first brand</a></p></section>`;
}

function BrandView({ route, brands, scopes, onSignOut }: { route: Route; brands: Brand[]; scopes: string[] | null; onSignOut: () => void }) {
  // The brands the API lists for this key are the ones it may see: any other id is not found.
  const brand = brands.find((b) => String(b.id) === route.brandId) ?? null;
  let body;
  if (!brand) body = html`<${NotFound} what=${`No brand with id "${route.brandId}" is visible to this key.`} />`;
  else if (!route.known) body = html`<${NotFound} what="This page does not exist." />`;
  else {
    const props: PageProps = { route, brand, period: periodOf(route.params), scopes };
    switch (route.page) {
      case 'answers':
        body = html`<${AnswersPage} ...${props} />`;
        break;
      case 'citations':
        body = html`<${CitationsPage} ...${props} />`;
        break;
      case 'bots':
        body = html`<${BotsPage} ...${props} />`;
        break;
      case 'channels':
        body = html`<${ChannelsPage} ...${props} />`;
        break;
      case 'opportunities':
        body = route.id ? html`<${OpportunityPage} ...${props} id=${route.id} />` : html`<${OpportunitiesPage} ...${props} />`;
        break;
      case 'webhooks':
        body = html`<${WebhooksPage} ...${props} />`;
        break;
      default:
        body = html`<${OverviewPage} ...${props} />`;
    }
  }
  return html`<${Layout} route=${route} brands=${brands} brandName=${brand?.name ?? null} onSignOut=${onSignOut}>${body}<//>`;
}

function SignedIn({ route, scopes, onSignOut }: { route: Route; scopes: string[] | null; onSignOut: () => void }) {
  const brands = useApi<[{ data: Brand[] }]>(['/brands']);
  useEffect(() => {
    if (brands.state === 'ok' && route.brandId === null && route.known && brands.data[0].data.length > 0) navigate(pathFor(brands.data[0].data[0].id, 'overview', null, route.params), { replace: true });
  }, [brands.state, route.brandId]);
  if (brands.state === 'loading') return html`<${Loading} what="your brands" />`;
  if (brands.state === 'error') return html`<main id="main" class="solo"><${ErrorBox} error=${brands.error} title="Your brands could not be read" /><button class="button" type="button" onClick=${onSignOut}>Sign out</button></main>`;
  const list = brands.data[0].data;
  if (route.brandId === null) {
    if (!route.known) return html`<${Layout} route=${route} brands=${list} brandName=${null} onSignOut=${onSignOut}><${NotFound} what="This page does not exist." /><//>`;
    if (list.length === 0) return html`<${Layout} route=${route} brands=${list} brandName=${null} onSignOut=${onSignOut}><section class="card"><h1>No brands yet</h1><p>This key's organisation has no brand it may see. Brands are created with the administration CLI (README, "Administration CLI").</p></section><//>`;
    return html`<${Loading} what="your first brand" />`;
  }
  return html`<${BrandView} route=${route} brands=${list} scopes=${scopes} onSignOut=${onSignOut} />`;
}

function App() {
  const route = useRoute();
  // With a key kept in this tab the views start at once; what the key may do arrives beside them.
  const [signedIn, setSignedIn] = useState(() => storedKey() !== null);
  const [info, setInfo] = useState<KeyInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = (message: string | null) => {
    forgetKey();
    clearCache();
    setSignedIn(false);
    setInfo(null);
    setNotice(message);
  };
  useEffect(() => onUnauthorized(() => signOut('The API refused the key (401): it may have expired or been revoked. Sign in again.')), []);
  // A key kept in this tab: ask the API what it may do (a 401 signs out through onUnauthorized).
  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    api
      .validate<{ data: KeyInfo }>(key)
      .then((r) => setInfo(r.data))
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401)) signOut(`The key could not be checked: ${e instanceof Error ? e.message : String(e)}`);
      });
  }, []);
  if (!signedIn)
    return html`<${SignIn}
      notice=${notice}
      onSignedIn=${(key: string, i: KeyInfo) => {
        storeKey(key);
        clearCache();
        setNotice(null);
        setInfo(i);
        setSignedIn(true);
      }}
    />`;
  return html`<${SignedIn} route=${route} scopes=${info?.scopes ?? null} onSignOut=${() => signOut('Signed out: the key is forgotten.')} />`;
}

const root = document.getElementById('app')!;
// The page's "Loading" placeholder goes; Preact renders into an empty element.
root.textContent = '';
interceptLinks(root);
render(html`<${App} />`, root);
