import { Ajv, type Options } from 'ajv'
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
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const text = new Ajv({ ...SHARED, coerceTypes: 'array' })
  const json = new Ajv({ ...SHARED, coerceTypes: false })
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? json : text).compile(schema as object) as ReturnType<
      FastifySchemaCompiler<unknown>
    >
}
