import { PageOf } from '@libs/http';
import { CitationSourceRecordDto } from '../read-model/source-record.dto';

export class CitationSourcePage extends PageOf(CitationSourceRecordDto) {}
