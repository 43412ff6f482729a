// Everything a turn needs from the process that runs it, in one object.
import type { CoreServices } from 'agent-platform/sdk';
import type { IngestionApi } from '../../ingestion/api.ts';
import type { CitationsApi } from '../../citations/api.ts';
import type { ChatLimits, ChatOptions } from '../options.ts';
import type { ModelClient } from '../model/types.ts';
import type { Emit } from '../events/emitter.ts';
import type { FrameWriter } from './frame-writer.ts';
import type { LocalRuns } from './local-runs.ts';
import type { ToolSpecs } from './tool-specs.ts';

export interface Runtime {
  core: CoreServices;
  options: ChatOptions;
  limits: ChatLimits;
  /** undefined: no model configured, the offline responder answers. */
  model: ModelClient | undefined;
  modelName: string;
  emit: Emit;
  writer: FrameWriter;
  runs: LocalRuns;
  /** The tools turns offer the model, kept briefly per tenant and agent. */
  toolSpecs: ToolSpecs;
  ingestion(): IngestionApi | undefined;
  citations(): CitationsApi | undefined;
}

export const ASK_USER_TIMEOUT_TASK = 'chat.ask_user_timeout';
export const askUserJobKey = (turnId: string) => `chat.ask_user:${turnId}`;

