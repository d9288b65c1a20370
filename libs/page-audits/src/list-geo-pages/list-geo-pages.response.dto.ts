import { PageOf } from '@libs/http';
import { GeoPageDto } from '../geo-page.dto';

export class GeoPageListResponse extends PageOf(GeoPageDto) {}
