// The run as the route answers it (the record's shape lives with the read model that builds it).
export { AnalysisRunResponse } from '../read-model/analysis-record.dto';
