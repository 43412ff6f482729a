// The pipelines-transforms api as this plugin uses it (types from its api.ts
// only). It is the optional dependency's api, read when used; absent, steps naming transforms and every run fail with TRANSFORMS_UNAVAILABLE.
import type { MaterializeResult, TransformRecord, TransformsApi } from '../../pipelines-transforms/api.ts';

export type TransformsPort = TransformsApi;
export type MaterializeResultPort = MaterializeResult;
export type TransformRecordPort = TransformRecord;
