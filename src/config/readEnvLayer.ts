import { CHAIN_FIELDS, GLOBAL_FIELDS } from './fields.ts'
import { createLayer, type Layer, setChain, setGlobal } from './layer.ts'

const CHAIN_VARIABLE = /^(SCRY_[A-Z_]+)_([0-9]+)$/

/**
 * Reads `SCRY_*` variables into a layer (`SCRY_PORT`, `SCRY_RPC_8453`, …). Empty values count
 * as unset. Variables Scry does not know are left alone: the environment is shared.
 */
export function readEnvLayer({
  env,
  issues,
}: {
  env: Record<string, string | undefined>
  issues: string[]
}): Layer {
  const layer = createLayer()
  for (const field of GLOBAL_FIELDS) {
    const text = env[field.env]
    if (text === undefined || text.trim() === '') continue
    const parsed = field.rule.fromText(text)
    if ('error' in parsed) issues.push(`${field.env}: ${parsed.error}`)
    else setGlobal(layer, field.key, parsed.value)
  }
  for (const [name, text] of Object.entries(env)) {
    const match = CHAIN_VARIABLE.exec(name)
    if (!match || text === undefined || text.trim() === '') continue
    const field = CHAIN_FIELDS.find((field) => field.env === match[1])
    const chainId = Number(match[2])
    if (!field || !Number.isSafeInteger(chainId)) continue
    const parsed = field.rule.fromText(text)
    if ('error' in parsed) issues.push(`${name}: ${parsed.error}`)
    else setChain({ layer, chainId, origin: name, key: field.key, value: parsed.value })
  }
  return layer
}
