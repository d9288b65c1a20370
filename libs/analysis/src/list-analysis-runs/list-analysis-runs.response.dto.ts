import { PageOf } from '@libs/http';
import { AnalysisRunDto } from '../read-model/analysis-record.dto';

export class AnalysisRunListResponse extends PageOf(AnalysisRunDto) {}
