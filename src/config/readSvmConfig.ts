import { parseSvmAddress } from '../svm/parseSvmAddress.ts'
import { isPoolType } from '../svm/pools/isPoolType.ts'
import { SVM_CHAIN_NAMES, SVM_DEFAULTS, type SvmChainName } from '../svm/svmDefaults.ts'
import { integerRule, rpcRule, showValue } from './rules.ts'
import type { ConfigFlags, SvmChainConfig } from './types.ts'

const FILE_KEYS = ['rpc', 'usdcMint', 'dexPrograms', 'rpcBatchSize']
const SVM_ASSIGNMENT = /^\s*(solana|eclipse)\s*=(.*)$/s

type Partial_ = {
  rpc?: string[]
  usdcMint?: string
  dexPrograms?: SvmChainConfig['dexPrograms']
  rpcBatchSize?: number
}

/**
 * SVM chains: file `svm.<solana|eclipse>.{rpc, usdcMint, dexPrograms, rpcBatchSize}`, env
 * `SCRY_RPC_SOLANA` / `SCRY_USDC_MINT_SOLANA` (and `_ECLIPSE`), flag `--rpc solana=<url>`.
 * Later sources win per key (rpc URLs from several flags add up). Returns the enabled chains
 * (those with an RPC URL) and the flags without their SVM `--rpc` entries, which the EVM
 * reader would reject as non-numeric chain ids.
 */
export function readSvmConfig({
  flags,
  env,
  file,
  issues,
}: {
  flags: ConfigFlags
  env: Record<string, string | undefined>
  file: unknown
  issues: string[]
}): { chains: SvmChainConfig[]; evmFlags: ConfigFlags } {
  const layers: Partial<Record<SvmChainName, Partial_>>[] = [
    readFile(file, issues),
    readEnv(env, issues),
  ]
  const fromFlags: Partial<Record<SvmChainName, Partial_>> = {}
  const evmRpc: string[] = []
  for (const text of flags.rpc ?? []) {
    const match = SVM_ASSIGNMENT.exec(text)
    if (!match) {
      evmRpc.push(text)
      continue
    }
    const name = match[1] as SvmChainName
    const parsed = httpOnly(rpcRule.fromText(match[2] ?? ''))
    if ('error' in parsed) issues.push(`--rpc (${name}): ${parsed.error}`)
    else fromFlags[name] = { rpc: [...new Set([...(fromFlags[name]?.rpc ?? []), ...parsed.value])] }
  }
  layers.push(fromFlags)

  const chains: SvmChainConfig[] = []
  for (const name of SVM_CHAIN_NAMES) {
    const merged: Partial_ = Object.assign({}, ...layers.map((layer) => layer[name] ?? {}))
    if (!merged.rpc || merged.rpc.length === 0) continue
    const defaults = SVM_DEFAULTS[name]
    chains.push({
      name,
      rpc: merged.rpc,
      usdcMint: merged.usdcMint ?? defaults.usdcMint,
      dexPrograms: merged.dexPrograms ?? defaults.dexPrograms,
      rpcBatchSize: merged.rpcBatchSize ?? 50,
    })
  }
  const evmFlags: ConfigFlags = { ...flags }
  if (flags.rpc !== undefined) evmFlags.rpc = evmRpc.length > 0 ? evmRpc : undefined
  return { chains, evmFlags }
}

/** Solana nodes answer calls over HTTP only (their WebSocket serves subscriptions). */
function httpOnly(
  parsed: { value: string[] } | { error: string },
): { value: string[] } | { error: string } {
  if ('error' in parsed) return parsed
  const ws = parsed.value.find((url) => !/^https?:\/\//i.test(url))
  return ws ? { error: `expected http(s) URLs (Solana serves calls over HTTP), got ${ws}` } : parsed
}

function readEnv(
  env: Record<string, string | undefined>,
  issues: string[],
): Partial<Record<SvmChainName, Partial_>> {
  const out: Partial<Record<SvmChainName, Partial_>> = {}
  for (const name of SVM_CHAIN_NAMES) {
    const chain: Partial_ = {}
    const rpcName = `SCRY_RPC_${name.toUpperCase()}`
    const rpc = env[rpcName]
    if (rpc !== undefined && rpc.trim() !== '') {
      const parsed = httpOnly(rpcRule.fromText(rpc))
      if ('error' in parsed) issues.push(`${rpcName}: ${parsed.error}`)
      else chain.rpc = parsed.value
    }
    const mintName = `SCRY_USDC_MINT_${name.toUpperCase()}`
    const mint = env[mintName]
    if (mint !== undefined && mint.trim() !== '') {
      if (parseSvmAddress(mint.trim())) chain.usdcMint = mint.trim()
      else issues.push(`${mintName}: expected a base58 address, got ${showValue(mint)}`)
    }
    out[name] = chain
  }
  return out
}

function readFile(file: unknown, issues: string[]): Partial<Record<SvmChainName, Partial_>> {
  const out: Partial<Record<SvmChainName, Partial_>> = {}
  if (!isObject(file) || file.svm === undefined) return out
  const svm = file.svm
  if (!isObject(svm)) {
    issues.push(`svm: expected an object keyed by solana or eclipse, got ${showValue(svm)}`)
    return out
  }
  for (const [key, value] of Object.entries(svm)) {
    const path = `svm.${key}`
    if (!(SVM_CHAIN_NAMES as readonly string[]).includes(key)) {
      issues.push(`${path}: unknown key (expected one of ${SVM_CHAIN_NAMES.join(', ')})`)
      continue
    }
    if (!isObject(value)) {
      issues.push(`${path}: expected an object, got ${showValue(value)}`)
      continue
    }
    for (const k of Object.keys(value))
      if (!FILE_KEYS.includes(k))
        issues.push(`${path}.${k}: unknown key (expected one of ${FILE_KEYS.join(', ')})`)
    const chain: Partial_ = {}
    if (value.rpc !== undefined) {
      const parsed = httpOnly(rpcRule.fromValue(value.rpc))
      if ('error' in parsed) issues.push(`${path}.rpc: ${parsed.error}`)
      else chain.rpc = parsed.value
    }
    if (value.usdcMint !== undefined) {
      if (typeof value.usdcMint === 'string' && parseSvmAddress(value.usdcMint))
        chain.usdcMint = value.usdcMint
      else
        issues.push(`${path}.usdcMint: expected a base58 address, got ${showValue(value.usdcMint)}`)
    }
    if (value.rpcBatchSize !== undefined) {
      const parsed = integerRule({ min: 1 }).fromValue(value.rpcBatchSize)
      if ('error' in parsed) issues.push(`${path}.rpcBatchSize: ${parsed.error}`)
      else chain.rpcBatchSize = parsed.value
    }
    if (value.dexPrograms !== undefined) {
      const programs = readDexPrograms(value.dexPrograms, `${path}.dexPrograms`, issues)
      if (programs) chain.dexPrograms = programs
    }
    out[key as SvmChainName] = chain
  }
  return out
}

function readDexPrograms(
  value: unknown,
  path: string,
  issues: string[],
): SvmChainConfig['dexPrograms'] | undefined {
  if (!isObject(value)) {
    issues.push(`${path}: expected an object of pool type → program id, got ${showValue(value)}`)
    return undefined
  }
  const out: SvmChainConfig['dexPrograms'] = {}
  for (const [type, program] of Object.entries(value)) {
    if (!isPoolType(type)) {
      issues.push(
        `${path}.${type}: unknown pool type (expected raydium_amm_v4, raydium_cpmm, raydium_clmm or orca_whirlpool)`,
      )
    } else if (typeof program !== 'string' || !parseSvmAddress(program)) {
      issues.push(`${path}.${type}: expected a base58 program id, got ${showValue(program)}`)
    } else out[type] = program
  }
  return out
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
