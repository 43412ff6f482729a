// What the forms plugin offers other plugins (its api, the `forms`
// dependency), and the public hydration-target contract that partner plugins
// implement: partners import these types as `agent-platform/forms`.
//
// A target turns an immutable, validated form submission into a domain object
// of its own. A plugin that depends on `forms` contributes it, under a model
// path ("occurrences.Occurrence"), to the `forms.targets` extension point:
//
//   coreOf(server).extensions.contribute('forms.targets', { model, label,
//     description, configSchema, discoverFields, hydrate, suggestions?, standardMappings? });
//
// Every function may return a promise. The trailing `ctx` arguments carry a
// tenant transaction to read the tenant's own rows (e.g. the options of an
// `fk` config item).
import type { TenantTransaction } from 'agent-platform/sdk';

/** How a target field gets its value (FieldInfo.category). */
export type FieldCategory = 'required' | 'auto_filled' | 'optional' | 'dynamic';

/** A field of the target model. */
export interface FieldInfo {
  key: string;
  label: string;
  /** Free text naming the value's type: `string`, `integer`, `number`, `boolean`, `point`, `file`, `object`... (`integer` gets TO_INT in default suggestions). */
  field_type: string;
  /** required: a value must be bound; auto_filled: the target fills it (not bindable); optional; dynamic: depends on the config. */
  category: FieldCategory;
  required: boolean;
  help_text?: string | null;
}

export type ConfigItemType = 'fk' | 'choice' | 'boolean' | 'text';

export interface ConfigOption {
  id: string | number;
  label: string;
}

/** One setting of a use case's target_config (an item of the target's config schema). */
export interface ConfigItem {
  key: string;
  label: string;
  /** fk: the id of one of the tenant's records (one of `options` when given); choice: one of `options`; boolean; text. */
  type: ConfigItemType;
  required: boolean;
  default?: unknown;
  help_text?: string | null;
  options?: ConfigOption[];
}

export type TargetConfig = Record<string, unknown>;

export type TransformName = 'NONE' | 'TO_INT' | 'LOOKUP' | 'GEO_PARSE';

/** A form field bound to a target field. */
export interface FieldBinding {
  source_field_path: string;
  target_field_path: string;
  transform: TransformName;
  /** LOOKUP: {table: {value: value}}; GEO_PARSE: {component: 'latitude' | 'longitude'}; otherwise {}. */
  transform_params: Record<string, unknown>;
}

/** A binding the target applies by itself when the form has `source_path` and no binding targets `target_field`. */
export interface StandardMapping {
  source_path: string;
  target_field: string;
  /** Set: GEO_PARSE with this component (two entries make one point). */
  component?: 'latitude' | 'longitude';
}

/** A data field of a form version. */
export interface FormField {
  /** Its data path (`address.street` inside a container). */
  path: string;
  key: string;
  label: string;
  /** The Form.io component type. */
  type: string;
  /** Its value has an inner structure that a path may reach into (`where.lat` of an address). */
  open: boolean;
}

/** The form a use case uses, as suggestions see it. */
export interface FormForSuggestions {
  definition_id: string;
  version: number;
  schema: Record<string, unknown>;
  fields: FormField[];
}

/** Read access to the tenant while discovering fields, config or suggestions. */
export interface TargetContext {
  tenantId: string;
  /** A tenant transaction (row-level security on the tenant). */
  trx: TenantTransaction;
}

export interface TargetFieldError {
  /** The target field (or config key) at fault. */
  field: string;
  message: string;
}

export interface HydrationContext extends TargetContext {
  /**
   * The submission's own transaction: write the object through it, so that it
   * and the submission commit or roll back together (a preview always rolls back).
   */
  trx: TenantTransaction;
  preview: boolean;
  useCase: { id: string; name: string };
  /** The submitting user's subject; null for an anonymous submission. */
  submittedBy: string | null;
  /** Refuses the submission with the target's field errors: 422, and nothing of it is kept. */
  reject(errors: TargetFieldError[]): never;
}

/** A stored file of the submission (a file reference of the payload, consumed). */
export interface SubmissionFile {
  id: string;
  /** Where the reference sits in the payload. */
  path: string;
  name: string;
  content_type: string;
  size: number;
}

export interface HydrationSubmission {
  id: string;
  form_definition_id: string;
  form_version: number;
  /** The stored payload (file references carry `file_id` in place of their spent token). */
  payload_json: Record<string, unknown>;
  municipality: string | null;
  files: SubmissionFile[];
  /**
   * The target fields' values: every binding and standard mapping applied
   * with its transform (GEO_PARSE pairs as a GeoJSON Point, [longitude, latitude]).
   * Fields whose source is empty are absent.
   */
  values: Record<string, unknown>;
}

/** What hydrate returns: the created object, with its id. */
export interface HydratedObject {
  id: string | number;
  [field: string]: unknown;
}

/** The hydration-target contract: what a contribution to `forms.targets` is. */
export interface HydrationTarget {
  /** The model path, e.g. `occurrences.Occurrence`: a lowercase app name, a dot, a model name. */
  model: string;
  label: string;
  description: string;
  /** The target's fields for a config (validated against configSchema, defaults applied). */
  discoverFields(config: TargetConfig, ctx: TargetContext): FieldInfo[] | Promise<FieldInfo[]>;
  /** Creates the object in ctx.trx; throw ctx.reject([...]) for field errors. */
  hydrate(ctx: HydrationContext, submission: HydrationSubmission, bindings: FieldBinding[], config: TargetConfig): Promise<HydratedObject>;
  configSchema(ctx: TargetContext): ConfigItem[] | Promise<ConfigItem[]>;
  /** Bindings to propose for a form; without it, form fields are matched to target fields by key and label. */
  suggestions?(config: TargetConfig, form: FormForSuggestions, ctx: TargetContext): FieldBinding[] | Promise<FieldBinding[]>;
  standardMappings?(): StandardMapping[];
}

/** A payload problem, as a submission's 422 lists them. */
export interface FormValidationError {
  /** The payload path (`rows[1].n`). */
  path: string;
  message: string;
}

export interface FormValidationResult {
  /** The payload as Form.io keeps it: this form's fields only, conditionally hidden values cleared, values normalised. */
  data: Record<string, unknown>;
  errors: FormValidationError[];
}

/** A file another plugin took with claimFiles: the server's record of it. */
export interface ClaimedFile {
  id: string;
  name: string;
  content_type: string;
  size: number;
}

/** What claimFiles consumes, for whom, and whose the files become. */
export interface FileClaim {
  /** The file tokens (`ft_…`, from POST /api/forms/files), in the caller's order. */
  tokens: unknown[];
  /** Who uploaded them: a user's subject, or null for an anonymous visitor (a token is bound to its uploader). */
  uploader: string | null;
  /** The object the files now belong to: the claiming plugin's name and its object's id. */
  owner: { plugin: string; id: string };
  /** The list's name in the caller's body: errors name `${field}[i]` (default `files`). */
  field?: string;
}

/** Lets anonymous visitors upload for a plugin's public intake (see allowAnonymousUploads). */
export interface AnonymousUploadGate {
  /** The plugin's name (for readers of the code and logs). */
  plugin: string;
  /** True when the tenant (row-level security on trx) has a public intake of the plugin that takes file tokens. */
  allows(trx: TenantTransaction): Promise<boolean>;
}

export interface FormsApi {
  /**
   * Validates a payload against a Form.io form schema with Form.io's engine,
   * as submissions are (occurrence types with v1 form schemas use it). A
   * schema the platform will not run (code, fetches, patterns RE2 cannot run,
   * bad or duplicate keys) throws a 400 `FORM_SCHEMA_INVALID` naming each problem.
   */
  validateAgainstForm(schema: unknown, payload: Record<string, unknown>): FormValidationResult;
  /** Every reason a Form.io schema is refused (empty: acceptable); for checking a schema when it is saved. */
  formSchemaProblems(schema: unknown): string[];
  /**
   * Consumes upload tokens for another plugin's object, in the caller's tenant
   * transaction (`trx`: its rollback gives the tokens back). Each token is
   * checked as a submission's file reference is: of this tenant, unused,
   * unexpired, uploaded by `uploader`; any bad one throws 422
   * `FILE_TOKEN_INVALID` with `errors: [{path: '<field>[i]', message}]` and
   * consumes nothing. Call it after the owner row exists (its id is recorded).
   * Returns the files' records, in the tokens' order.
   */
  claimFiles(trx: TenantTransaction, claim: FileClaim): Promise<ClaimedFile[]>;
  /**
   * Anonymous uploads to POST /api/forms/files need the tenant to take them:
   * an active public use case, or a gate registered here that answers true
   * (a plugin whose public intake takes file tokens). Call it at register.
   */
  allowAnonymousUploads(gate: AnonymousUploadGate): void;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    forms: { api: FormsApi };
  }
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /** A hydration target. A model contributed twice stops the boot (PluginContractError, one line). */
    'forms.targets': HydrationTarget;
  }
}
