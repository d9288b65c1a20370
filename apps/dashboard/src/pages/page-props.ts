import type { Brand } from '../components/layout';
import type { Period } from '../period';
import type { Route } from '../router';

/** What every page gets: the route (its filters), the brand (checked by the API), the period, the key's scopes (null until known). */
export interface PageProps {
  route: Route;
  brand: Brand;
  period: Period;
  /** null while the API has not said yet (the page is shown meanwhile; write controls wait). */
  scopes: string[] | null;
}
