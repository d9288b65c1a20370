import { PageOf } from '@libs/http';
import { ChangeDto } from '../read-model/change.dto';

export class ChangePage extends PageOf(ChangeDto) {}
