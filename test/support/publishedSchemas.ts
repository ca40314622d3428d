import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import ajvFormats from 'ajv-formats'

/**
 * The hosted API's published response schemas (`spec/sim-schemas.json`: `responses` keyed by
 * operation, refs into `components.schemas`), kept here as a copy so that the suite runs on a
 * clean clone; `publishedSchemas.test.ts` checks the copy against the spec where it is present.
 */
export const PUBLISHED_SCHEMAS_FILE = new URL('../fixtures/sim-schemas.json', import.meta.url)

export type PublishedValidator = {
  /** Every operation the document has a response schema for, e.g. `GET /v1/evm/activity/{address}`. */
  operations: string[]
  /** The answer's problems against the operation's schema, one line each; `[]` when it conforms. */
  validate(operation: string, body: unknown): string[]
}

const INT32 = 2 ** 31

/**
 * Ajv (strict) over the published document, read as OpenAPI 3.0 reads it: `nullable`, and its
 * formats (`date-time`, `uri`, `uuid` as ajv-formats checks them; `address` an EVM address;
 * `int32`/`int64` integers in range; `double`/`float` finite numbers).
 */
export function createPublishedValidator(): PublishedValidator {
  const text = readFileSync(PUBLISHED_SCHEMAS_FILE, 'utf8').replaceAll(
    '"#/components/schemas/',
    '"#/$defs/',
  )
  const doc = JSON.parse(text) as {
    responses: Record<string, object>
    components: { schemas: Record<string, object> }
  }
  // strictTypes off only for the DeFi schemas' `discriminator` without `type: object`.
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, discriminator: true })
  // A CommonJS module: its default export is the plugin.
  ajvFormats.default(ajv, ['date-time', 'uri', 'uuid'])
  ajv.addFormat('address', /^0x[0-9a-fA-F]{40}$/)
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n) => Number.isInteger(n) && n >= -INT32 && n < INT32,
  })
  ajv.addFormat('int64', { type: 'number', validate: (n) => Number.isSafeInteger(n) })
  for (const name of ['double', 'float']) {
    ajv.addFormat(name, { type: 'number', validate: (n) => Number.isFinite(n) })
  }
  ajv.addKeyword('example')
  const compiled = new Map<string, ValidateFunction>()
  return {
    operations: Object.keys(doc.responses),
    validate(operation, body) {
      let check = compiled.get(operation)
      if (!check) {
        const schema = doc.responses[operation]
        if (!schema) throw new Error(`no published schema for ${operation}`)
        check = ajv.compile({ ...schema, $defs: doc.components.schemas })
        compiled.set(operation, check)
      }
      if (check(body)) return []
      return (check.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      )
    },
  }
}
