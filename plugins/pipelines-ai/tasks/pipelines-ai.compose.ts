// The compose-pipeline job (pg-boss: a model call may take a minute): one
// execution, run once.
import type { ComposeJob, ComposeService } from '../service-compose.ts';

export const composeTask = (compose: ComposeService) => (data: ComposeJob) => compose.run(data);
