import { CHAIN_ENDPOINTS, CHAIN_TAGS, type ChainEndpoints } from '../chains/catalogue.ts'
import { type CatalogueOverride, findCatalogueProblems } from '../chains/resolveCatalogue.ts'
import { CHAIN_FIELDS, GLOBAL_FIELDS } from './fields.ts'
import { createLayer, type Layer, setChain, setGlobal } from './layer.ts'
import { showValue } from './rules.ts'

const TOP_KEYS = [
  'database',
  'databaseRead',
  'dataDir',
  'server',
  'log',
  'auth',
  'redis',
  'nft',
  'webhooks',
  'indexer',
  'chains',
  'catalogue',
  '$schema',
  // SVM chains, read by readSvmConfig
  'svm',
]
const SECTION_KEYS: Record<string, string[]> = {
  server: [
    'host',
    'port',
    'tlsCert',
    'tlsKey',
    'trustProxy',
    'responseProfile',
    'readyMaxLagBlocks',
  ],
  log: ['level'],
  auth: ['headerAliases'],
  nft: ['ipfsGateway', 'allowPrivateFetch'],
  webhooks: ['allowHttp', 'allowPrivateAddresses', 'concurrency'],
  indexer: ['standbyTakeoverSeconds'],
}
const CHAIN_KEYS = CHAIN_FIELDS.map((field) => field.key)
const CATALOGUE_KEYS = ['chainId', 'name', 'tags', 'endpoints']
const CHAIN_NAME = /^[a-z][a-z0-9_]*$/

/**
 * Reads a config file's content (already parsed) into a layer. Every problem is pushed to
 * `issues` with its key path; unknown keys are problems too, so typos do not go unnoticed.
 */
export function readFileLayer({ content, issues }: { content: unknown; issues: string[] }): {
  layer: Layer
  /** `undefined` when the file's `catalogue` is invalid (its problems are in `issues`). */
  catalogue: CatalogueOverride[] | undefined
} {
  const layer = createLayer()
  if (!isObject(content)) {
    issues.push(`config file: expected an object, got ${showValue(content)}`)
    return { layer, catalogue: [] }
  }
  checkKeys({ object: content, allowed: TOP_KEYS, path: '', issues })
  for (const [section, allowed] of Object.entries(SECTION_KEYS)) {
    const value = content[section]
    if (value === undefined) continue
    if (isObject(value)) checkKeys({ object: value, allowed, path: `${section}.`, issues })
    else issues.push(`${section}: expected an object, got ${showValue(value)}`)
  }

  for (const field of GLOBAL_FIELDS) {
    const value = field.path
      .split('.')
      .reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), content)
    if (value === undefined) continue
    const parsed = field.rule.fromValue(value)
    if ('error' in parsed) issues.push(`${field.path}: ${parsed.error}`)
    else setGlobal(layer, field.key, parsed.value)
  }

  readChains({ value: content.chains, layer, issues })
  const catalogue = content.catalogue === undefined ? [] : readCatalogue(content.catalogue, issues)
  return { layer, catalogue }
}

function readChains({ value, layer, issues }: { value: unknown; layer: Layer; issues: string[] }) {
  if (value === undefined) return
  if (!isObject(value)) {
    issues.push(`chains: expected an object keyed by chain id, got ${showValue(value)}`)
    return
  }
  for (const [key, chain] of Object.entries(value)) {
    const path = `chains.${key}`
    if (!/^[0-9]+$/.test(key) || !Number.isSafeInteger(Number(key))) {
      issues.push(`${path}: expected a numeric chain id as key, got ${showValue(key)}`)
      continue
    }
    if (!isObject(chain)) {
      issues.push(`${path}: expected an object, got ${showValue(chain)}`)
      continue
    }
    checkKeys({ object: chain, allowed: CHAIN_KEYS, path: `${path}.`, issues })
    const chainId = Number(key)
    for (const field of CHAIN_FIELDS) {
      if (chain[field.key] === undefined) continue
      const parsed = field.rule.fromValue(chain[field.key])
      if ('error' in parsed) issues.push(`${path}.${field.key}: ${parsed.error}`)
      else setChain({ layer, chainId, origin: path, key: field.key, value: parsed.value })
    }
  }
}

function readCatalogue(value: unknown, issues: string[]): CatalogueOverride[] | undefined {
  if (!Array.isArray(value)) {
    issues.push(`catalogue: expected an array of chains, got ${showValue(value)}`)
    return undefined
  }
  const before = issues.length
  const overrides = value.map((entry, index) => {
    const path = `catalogue[${index}]`
    const override: CatalogueOverride = { chainId: 0 }
    if (!isObject(entry)) {
      issues.push(`${path}: expected an object, got ${showValue(entry)}`)
      return override
    }
    checkKeys({ object: entry, allowed: CATALOGUE_KEYS, path: `${path}.`, issues })
    const { chainId, name, tags, endpoints } = entry
    if (typeof chainId === 'number' && Number.isSafeInteger(chainId) && chainId >= 1)
      override.chainId = chainId
    else issues.push(`${path}.chainId: expected an integer ≥ 1, got ${showValue(chainId)}`)
    if (name !== undefined) {
      if (typeof name === 'string' && CHAIN_NAME.test(name)) override.name = name
      else
        issues.push(
          `${path}.name: expected lowercase letters, digits and _ (e.g. "my_chain"), got ${showValue(name)}`,
        )
    }
    if (tags !== undefined) {
      if (Array.isArray(tags) && tags.every((tag) => (CHAIN_TAGS as unknown[]).includes(tag)))
        override.tags = tags
      else
        issues.push(
          `${path}.tags: expected an array of ${CHAIN_TAGS.join(', ')}, got ${showTags(tags)}`,
        )
    }
    if (endpoints !== undefined) {
      if (!isObject(endpoints)) {
        issues.push(`${path}.endpoints: expected an object, got ${showValue(endpoints)}`)
      } else {
        checkKeys({
          object: endpoints,
          allowed: CHAIN_ENDPOINTS,
          path: `${path}.endpoints.`,
          issues,
        })
        const result: Partial<ChainEndpoints> = {}
        for (const endpoint of CHAIN_ENDPOINTS) {
          const supported = endpoints[endpoint]
          if (supported === undefined) continue
          if (typeof supported === 'boolean') result[endpoint] = supported
          else
            issues.push(
              `${path}.endpoints.${endpoint}: expected true or false, got ${showValue(supported)}`,
            )
        }
        override.endpoints = result
      }
    }
    return override
  })
  if (issues.length > before) return undefined
  const problems = findCatalogueProblems(overrides)
  issues.push(...problems)
  return problems.length > 0 ? undefined : overrides
}

function showTags(tags: unknown): string {
  if (!Array.isArray(tags)) return showValue(tags)
  const bad = tags.find((tag) => !(CHAIN_TAGS as unknown[]).includes(tag))
  return showValue(bad)
}

function checkKeys({
  object,
  allowed,
  path,
  issues,
}: {
  object: Record<string, unknown>
  allowed: readonly string[]
  path: string
  issues: string[]
}): void {
  for (const key of Object.keys(object))
    if (!allowed.includes(key))
      issues.push(
        `${path}${key}: unknown key (expected one of ${allowed.filter((k) => k !== '$schema').join(', ')})`,
      )
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
