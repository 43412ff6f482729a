// A last check of every derived argument schema against the JSON Schema
// meta-schema, with the registry's ajv settings: a schema ajv would refuse
// must not turn a later call into a 500. A refused parameter schema becomes
// permissive (`{}`) with a warning. (Checking is cheap; compiling every
// function here would cost seconds on a large spec, so the registry compiles
// each one on its first call.)
import { createAjv } from 'agent-platform/sdk';
import type { DerivedFunction } from './model.ts';
import { argumentsSchema } from './derive.ts';

const ajv = createAjv({ useDefaults: true, validateFormats: false });

export function checkSchemas(fn: DerivedFunction): DerivedFunction {
  if (ajv.validateSchema(fn.json_schema)) return fn;
  const parameters = { ...fn.parameters };
  const warnings = [...fn.warnings];
  for (const [name, parameter] of Object.entries(parameters)) {
    if (ajv.validateSchema(parameter.schema)) continue;
    parameters[name] = { ...parameter, schema: {} };
    warnings.push({ operation: fn.operation_key, message: `the schema of argument "${name}" is not valid JSON Schema and accepts any value` });
  }
  return { ...fn, parameters, json_schema: argumentsSchema(parameters, fn.request.free_form), warnings };
}
