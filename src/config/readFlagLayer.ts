import { CHAIN_FIELDS, flagKey, GLOBAL_FIELDS } from './fields.ts'
import { createLayer, type Layer, setChain, setGlobal } from './layer.ts'
import { showUrl, showValue } from './rules.ts'
import type { ConfigFlags } from './types.ts'

const CHAIN_ASSIGNMENT = /^\s*([0-9]+)\s*=(.*)$/s

/** Reads CLI flags (raw text) into a layer; per-chain flags are `<chainId>=<value>`. */
export function readFlagLayer({ flags, issues }: { flags: ConfigFlags; issues: string[] }): Layer {
  const layer = createLayer()
  for (const field of GLOBAL_FIELDS) {
    const text = flags[flagKey(field.flag)]
    if (text === undefined) continue
    const parsed = field.rule.fromText(String(text))
    if ('error' in parsed) issues.push(`${field.flag}: ${parsed.error}`)
    else setGlobal(layer, field.key, parsed.value)
  }
  for (const field of CHAIN_FIELDS) {
    const given = flags[flagKey(field.flag)]
    if (given === undefined) continue
    for (const text of Array.isArray(given) ? given : [String(given)]) {
      const match = CHAIN_ASSIGNMENT.exec(text)
      const chainId = Number(match?.[1])
      if (!match || !Number.isSafeInteger(chainId)) {
        const shown = field.key === 'rpc' ? showUrl(text) : showValue(text)
        const value = field.key === 'rpc' ? '<url>' : '<value>'
        issues.push(`${field.flag}: expected <chainId>=${value}, got ${shown}`)
        continue
      }
      const parsed = field.rule.fromText(match[2] ?? '')
      const origin = `${field.flag} ${chainId}=…`
      if ('error' in parsed) issues.push(`${field.flag} (chain ${chainId}): ${parsed.error}`)
      else setChain({ layer, chainId, origin, key: field.key, value: parsed.value })
    }
  }
  return layer
}
