-- A reactive trigger may ignore the results of the executions it started
-- itself (their workflow.completed / workflow.failed events), so that a
-- trigger on workflow.* does not feed on its own workflows. Off by default:
-- one event matching several triggers starts one workflow per trigger, and a
-- loop is stopped by the chain depth bound (EVENTS_MAX_CHAIN_DEPTH).
ALTER TABLE triggers ADD COLUMN ignore_own_results boolean NOT NULL DEFAULT false;
