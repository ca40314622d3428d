import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi } from 'viem'
import type { Hex } from '../evm/types.ts'
import { BaseError } from '../internal/errors.ts'

export type CompiledContract = { abi: Abi; bytecode: Hex }

/** Names of the contracts in src/dev/contracts/ that `compileContracts` returns. */
export type DevContractName =
  | 'DemoERC20'
  | 'DemoERC721'
  | 'DemoERC1155'
  | 'RebasingToken'
  | 'FeeOnTransferToken'
  | 'Bytes32MetadataToken'
  | 'RevertingNameToken'
  | 'NoDecimalsToken'
  | 'EthForwarder'
  | 'SpamAirdropper'
  | 'PermitToken'
  | 'Permit2Lite'
  | 'DemoVault'
  | 'FeeVault'
  | 'InflatedVault'
  | 'GasBurnerVault'
  | 'DemoStETH'
  | 'DemoWstETH'
  | 'LookalikeAToken'

export type CompiledContracts = Record<DevContractName, CompiledContract>

const contractsDir = join(dirname(fileURLToPath(import.meta.url)), 'contracts')
const require = createRequire(import.meta.url)

type Solc = {
  version(): string
  compile(
    input: string,
    callbacks: { import(path: string): { contents: string } | { error: string } },
  ): string
}

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

let pending: Promise<CompiledContracts> | undefined

/**
 * Compiles the dev contracts with solc from npm (a few seconds), once per process and once
 * per source change: the output is cached in `node_modules/.cache/scry-contracts/`, keyed by
 * a hash of the sources, the solc version and the OpenZeppelin version.
 */
export function compileContracts(): Promise<CompiledContracts> {
  pending ??= compileOrLoad().catch((error: unknown) => {
    pending = undefined
    throw error
  })
  return pending
}

async function compileOrLoad(): Promise<CompiledContracts> {
  const solcDir = dirname(require.resolve('solc/package.json'))
  const nodeModules = dirname(solcDir)
  const solcVersion = readVersion(join(solcDir, 'package.json'))
  const ozVersion = readVersion(join(nodeModules, '@openzeppelin/contracts/package.json'))

  const files = (await readdir(contractsDir)).filter((f) => f.endsWith('.sol')).sort()
  const sources: Record<string, { content: string }> = {}
  const hash = createHash('sha256').update(`solc ${solcVersion}\noz ${ozVersion}\n`)
  for (const file of files) {
    const content = await readFile(join(contractsDir, file), 'utf8')
    sources[file] = { content }
    hash.update(`${file}\n${content}\n`)
  }
  const cacheDir = join(nodeModules, '.cache', 'scry-contracts')
  const cacheFile = join(cacheDir, `${hash.digest('hex').slice(0, 32)}.json`)

  const cached = await readFile(cacheFile, 'utf8').catch(() => undefined)
  if (cached) return JSON.parse(cached) as CompiledContracts

  const compiled = compile({ sources, nodeModules })
  await mkdir(cacheDir, { recursive: true })
  // Write then rename, so parallel test workers never read half a file.
  const tmp = `${cacheFile}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(compiled))
  await rename(tmp, cacheFile)
  return compiled
}

function compile({
  sources,
  nodeModules,
}: {
  sources: Record<string, { content: string }>
  nodeModules: string
}): CompiledContracts {
  const solc = require('solc') as Solc
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const readImport = (path: string) => {
    if (!path.startsWith('@openzeppelin/')) return { error: `unknown import ${path}` }
    try {
      return { contents: readFileSync(join(nodeModules, path), 'utf8') }
    } catch {
      return { error: `cannot read ${path} from node_modules` }
    }
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: readImport }),
  ) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0)
    throw new BaseError('Compiling the dev contracts failed.', {
      details: errors.map((e) => e.formattedMessage).join('\n'),
    })

  const result: Partial<CompiledContracts> = {}
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      // Only the contract named after its file; BareToken is abstract and has no bytecode.
      if (`${name}.sol` !== file || contract.evm.bytecode.object === '') continue
      result[name as DevContractName] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
      }
    }
  }
  return result as CompiledContracts
}

function readVersion(packageJson: string): string {
  return (require(packageJson) as { version: string }).version
}
