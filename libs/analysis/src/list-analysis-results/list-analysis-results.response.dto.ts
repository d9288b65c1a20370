import { PageOf } from '@libs/http';
import { AnalysisResultDto } from '../read-model/analysis-record.dto';

export class AnalysisResultsPage extends PageOf(AnalysisResultDto) {}
