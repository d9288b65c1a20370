import { OptionalIdQuery } from '@libs/http';

export class BrandsQuery {
  @OptionalIdQuery('clientId', 'Only the brands of this client')
  clientId?: number;
}
