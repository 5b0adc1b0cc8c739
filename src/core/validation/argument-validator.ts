// The only place ajv is used: compiles tool input schemas (lazily, cached) and reports failures
// with the JSON-schema path so that an agent can fix its call.
// ajv and ajv-formats are loaded with the first validator a call needs (about 0.1-0.2 s of a start).
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';

export type ValidationIssue = { path: string; schemaPath: string; message: string };
export type ValidationOutcome = { ok: true } | { ok: false; issues: ValidationIssue[]; message: string };

export function createAjv(): Ajv {
  // strict: false because Swagger-derived schemas carry descriptive keywords ajv does not know;
  // the catalogue test compiles every schema in strict mode separately.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { default: AjvClass } = require('ajv') as typeof import('ajv');
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ajv = new AjvClass({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

export class ArgumentValidator {
  private ajv: Ajv | null = null;
  private readonly cache = new Map<string, ValidateFunction>();

  compile(name: string, schema: object): ValidateFunction {
    let fn = this.cache.get(name);
    if (!fn) {
      this.ajv ??= createAjv();
      fn = this.ajv.compile(schema);
      this.cache.set(name, fn);
    }
    return fn;
  }

  validate(name: string, schema: object, args: unknown): ValidationOutcome {
    const fn = this.compile(name, schema);
    if (fn(args)) return { ok: true };
    const issues = (fn.errors ?? []).slice(0, 10).map(describeError);
    const message = `invalid arguments for ${name}: ${issues.map((i) => `${i.path} ${i.message} (schema ${i.schemaPath})`).join('; ')}`;
    return { ok: false, issues, message: message.slice(0, 2000) };
  }
}

function describeError(error: ErrorObject): ValidationIssue {
  const path = error.instancePath || '/';
  let message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    message = `has unknown property "${String(params.additionalProperty)}"`;
  if (error.keyword === 'enum')
    message = `must be one of ${JSON.stringify(params.allowedValues)}`.slice(0, 300);
  if (error.keyword === 'required')
    message = `is missing required property "${String(params.missingProperty)}"`;
  return { path, schemaPath: error.schemaPath, message };
}
