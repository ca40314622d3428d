import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import type { FastifySchemaCompiler } from 'fastify'

const SHARED: Options = {
  useDefaults: true,
  removeAdditional: false,
  addUsedSchema: false,
  // Never all errors: a crafted input could make validation slow.
  allErrors: false,
}

/**
 * The API's request validation, one Ajv per kind of input. A query string, path or header is
 * text, so its values are coerced to the schema's types (`limit=5` is a number, `chain_ids`
 * one or several); a JSON body already has types, so it is checked as sent: `"name": 123`,
 * `"active": "true"` or `"chain_ids": null` are 400s, not quietly turned into something else.
 * An integer in a query string or path must be written in digits (Ajv's coercion would take
 * `0x10`, `1e3`, `1.0`, ` 5` or `+5`), and a parameter that takes one value must be given once.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const text = new Ajv({ ...SHARED, coerceTypes: 'array' })
  const json = new Ajv({ ...SHARED, coerceTypes: false })
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return json.compile(schema as object) as never
    const validate = text.compile(schema as object)
    return (
      httpPart === 'querystring' || httpPart === 'params'
        ? strictText(schema as ObjectSchema, validate)
        : validate
    ) as never
  }
}

type ObjectSchema = { properties?: Record<string, { type?: unknown }> }

/** What `validate` checks, after the checks of the text as sent that coercion would hide. */
function strictText(schema: ObjectSchema, validate: ValidateFunction): ValidateFunction {
  const single = Object.entries(schema.properties ?? {}).filter(
    ([, property]) => typeof property.type === 'string' && property.type !== 'array',
  )
  if (single.length === 0) return validate
  const fail = (key: string, message: string): false => {
    check.errors = [
      { keyword: 'type', instancePath: `/${key}`, schemaPath: '', params: {}, message },
    ] satisfies ErrorObject[]
    return false
  }
  const check = ((data: unknown) => {
    if (typeof data === 'object' && data !== null) {
      const values = data as Record<string, unknown>
      for (const [key, property] of single) {
        const value = values[key]
        if (Array.isArray(value)) return fail(key, 'must be given once')
        if (property.type !== 'integer' || typeof value !== 'string') continue
        if (!/^-?[0-9]+$/.test(value)) return fail(key, 'must be integer')
      }
    }
    const ok = validate(data)
    check.errors = validate.errors ?? null
    return ok
  }) as ValidateFunction
  return check
}
