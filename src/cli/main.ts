import { createRequire } from 'node:module'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { CHAIN_FIELDS } from '../config/fields.ts'
import { isDebugEnabled } from '../config/isDebugEnabled.ts'
import { resolveConfig } from '../config/resolveConfig.ts'
import { type ConfigFlags, LOG_LEVELS } from '../config/types.ts'
import { runAbiAdd } from './commands/abi.ts'
import { addKeysCommand, type KeysAction, runKeys } from './commands/keys.ts'
import { runMigrate } from './commands/migrate.ts'
import { runResetChain } from './commands/resetChain.ts'
import { runStart } from './commands/start.ts'
import { runStatus } from './commands/status.ts'
import { listenForShutdown } from './listenForShutdown.ts'
import { parseDevChains } from './parseDevChains.ts'
import { parseRoles, ROLES, type Role } from './parseRoles.ts'
import { reportError } from './reportError.ts'

/** Where the CLI writes; tests pass their own. */
export type MainIo = { out: (text: string) => void; err: (text: string) => void }

const defaultIo: MainIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}

type CommandName = 'dev' | 'start' | 'migrate' | 'status' | 'keys' | 'abi' | 'reset-chain'

/** A parsed command line: the command and its options as commander stored them. */
export type ParsedCommand = { name: CommandName; options: Record<string, unknown> }

/**
 * Parses `argv` (help, version and usage errors are printed here): the command to run, or
 * the exit code when there is nothing to run.
 */
export async function parseCommandLine(
  argv: string[],
  io: MainIo = defaultIo,
): Promise<ParsedCommand | { exitCode: number }> {
  let selected: ParsedCommand | undefined
  const program = createProgram({
    io,
    onCommand: (name, options) => {
      selected = { name, options }
    },
  })
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (error) {
    // Commander has already printed its message (or the help).
    if (error instanceof CommanderError) return { exitCode: error.exitCode }
    throw error
  }
  return selected ?? { exitCode: 0 }
}

/** The command's options that are configuration (the rest are the command's own). */
export function configFlags(options: Record<string, unknown>): ConfigFlags {
  const { chains: _chains, role: _role, json: _json, ...flags } = options
  return flags as ConfigFlags
}

/** Runs the `scry` command line; resolves to the exit code instead of exiting. */
export async function main(argv: string[], io: MainIo = defaultIo): Promise<number> {
  const debug = isDebugEnabled()
  let parsed: ParsedCommand | { exitCode: number }
  try {
    parsed = await parseCommandLine(argv, io)
  } catch (error) {
    reportError({ error, write: io.err, debug })
    return 1
  }
  if ('exitCode' in parsed) return parsed.exitCode
  const { name, options } = parsed

  // Long-running commands stop cleanly on a signal; the short ones keep Node's default.
  const shutdown =
    name === 'dev' || name === 'start' ? listenForShutdown({ log: io.err }) : undefined
  try {
    const { chains, role } = options
    const config = await resolveConfig({ flags: configFlags(options) })
    switch (name) {
      case 'dev': {
        const devChains = parseDevChains({
          text: chains as string | undefined,
          catalogue: config.catalogue,
        })
        // Loaded only here: the demo's deployers, artifacts and SVM tooling are not for start.
        const { runDev } = await import('./commands/dev.ts')
        return await runDev({
          config,
          options: { chains: devChains },
          signal: shutdown!.signal,
          write: io.out,
        })
      }
      case 'start': {
        const roles = parseRoles(role as string[] | undefined)
        for (const line of unreadFlags(options, roles)) io.err(line)
        return await runStart({
          config,
          signal: shutdown!.signal,
          roles,
          ...(typeof chains === 'string' ? { chains } : {}),
        })
      }
      case 'migrate':
        return await runMigrate({ config })
      case 'status':
        return await runStatus({ config, json: options.json === true })
      case 'reset-chain':
        return await runResetChain({
          config,
          chainId: options.resetChainId as number,
          yes: options.yes === true,
          write: io.out,
        })
      case 'abi':
        return await runAbiAdd({
          config,
          name: options.abiName as string,
          file: options.abiFile as string,
          write: io.out,
        })
      case 'keys':
        return await runKeys({ config, action: options.keys as KeysAction, write: io.out })
      default: {
        const unknown: never = name
        throw new Error(`unknown command ${unknown}`)
      }
    }
  } catch (error) {
    reportError({ error, write: io.err, debug })
    return 1
  } finally {
    shutdown?.dispose()
  }
}

function createProgram({
  io,
  onCommand,
}: {
  io: MainIo
  onCommand: (name: CommandName, options: Record<string, unknown>) => void
}): Command {
  const program = new Command('scry')
    .description('Self-hosted onchain data service: wallets, tokens, activity over HTTP')
    .version(readVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)')

  const commands: [ConfigCommand, string][] = [
    ['dev', 'run local chains with demo data, the indexer and the API in one process'],
    ['start', 'index the configured chains and serve the API'],
    ['migrate', 'apply pending database migrations'],
    ['status', 'show indexed head, node head and lag per chain'],
  ]
  for (const [name, description] of commands) {
    const command = addConfigOptions(program.command(name).description(description), name)
    if (name === 'start')
      command.option(
        '--role <roles>',
        `what this process runs: ${ROLES.join(', ')}; repeat or comma-separate (default: all)`,
        collect,
      )
    if (name === 'status')
      command.option('--json', 'print one JSON object {chains: [...]} instead of the table')
    if (name === 'dev')
      command.option(
        '--chains <ids>',
        'chain ids of the local chains, comma-separated (e.g. 1,8453)',
      )
    if (name === 'start')
      command.option(
        '--chains <ids>',
        'configured chains this process indexes, comma-separated (default: all); on PostgreSQL other processes may index the same chains as standbys',
      )
    command.action((options: Record<string, unknown>) => onCommand(name, options))
  }
  addConfigOptions(
    program
      .command('reset-chain')
      .description(
        "delete a chain's indexed data so that the next start indexes it again (after a reorg deeper than finalityDepth); keys, subscriptions and other chains stay",
      )
      .argument('<chainId>', 'the chain to reset', chainIdArgument)
      .option('--yes', 'delete (without it: say what would be deleted)'),
    'reset-chain',
  ).action((chainId: number, options: Record<string, unknown>) =>
    onCommand('reset-chain', { ...options, resetChainId: chainId }),
  )
  addKeysCommand({ program, onCommand: (options) => onCommand('keys', options) })
  program
    .command('abi')
    .description('ABIs used to decode transactions and calls')
    .command('add')
    .description('register an ABI (JSON array or compiler artifact) for decoding')
    .requiredOption('--name <name>', 'a name for the ABI (replaces one of the same name)')
    .requiredOption('--file <path>', 'the ABI JSON file')
    .option('--config <path>', 'config file (default: ./scry.config.ts or ./scry.config.json)')
    .option(
      '--database <url|path>',
      'postgres:// URL or SQLite file (default: <data-dir>/scry.sqlite)',
    )
    .option('--data-dir <path>', 'directory for local state (default: .scry)')
    .action((options: Record<string, unknown>) => {
      const { name, file, ...flags } = options
      onCommand('abi', { ...flags, abiName: name, abiFile: file })
    })
  return program
}

type ConfigCommand = 'dev' | 'start' | 'migrate' | 'status' | 'reset-chain'

/** Configuration flags, each on the commands that use its setting (`start` uses them all). */
const CONFIG_OPTIONS: readonly {
  flags: string
  description: string
  on: readonly ConfigCommand[]
  /** The `scry start --role`s whose process reads the setting (absent: every role). */
  readBy?: readonly Role[]
}[] = [
  {
    flags: '--config <path>',
    description: 'config file (default: ./scry.config.ts or ./scry.config.json)',
    on: ['dev', 'start', 'migrate', 'status', 'reset-chain'],
  },
  {
    flags: '--database <url|path>',
    description: 'postgres:// URL or SQLite file (default: <data-dir>/scry.sqlite)',
    on: ['start', 'migrate', 'status', 'reset-chain'],
  },
  {
    flags: '--database-read <url>',
    description: 'postgres:// URL of a read replica: API answers are read from it (default: none)',
    on: ['start'],
    readBy: ['api'],
  },
  {
    flags: '--data-dir <path>',
    description: 'directory for local state (default: .scry)',
    on: ['dev', 'start', 'migrate', 'status', 'reset-chain'],
  },
  ...(
    [
      ['--host <host>', 'address to listen on (default: 127.0.0.1)', ['api']],
      ['--port <port>', 'port to listen on (default: 8080)', ['api']],
      ['--log-level <level>', `${LOG_LEVELS.join(', ')} (default: info)`, ROLES],
      ['--tls-cert <path>', 'PEM certificate: serve HTTPS (with --tls-key)', ['api']],
      ['--tls-key <path>', 'PEM private key for --tls-cert', ['api']],
      [
        '--trust-proxy <true|false>',
        'behind a TLS proxy that sets X-Forwarded-Proto (default: false)',
        ['api'],
      ],
      [
        '--auth-header-alias <names>',
        'extra header names for the API key, comma-separated',
        ['api'],
      ],
      [
        '--response-profile <default|sim>',
        'answer shape for keys without their own profile (default: default)',
        ['api'],
      ],
      [
        '--ready-max-lag-blocks <n>',
        '/ready answers 503 when every chain is more blocks than this behind its node (default: off)',
        ['api'],
      ],
      ['--redis <url>', 'redis:// URL to share rate-limit counters between API replicas', ['api']],
      [
        '--ipfs-gateway <url>',
        'gateway for ipfs:// NFT metadata (default: https://ipfs.io/ipfs/)',
        ['indexer'],
      ],
      [
        '--nft-allow-private-fetch <true|false>',
        'let NFT metadata fetches reach private addresses (default: false)',
        ['indexer'],
      ],
      [
        '--webhooks-allow-http <true|false>',
        'accept http:// webhook URLs (default: false)',
        ['api', 'webhooks'],
      ],
      [
        '--webhooks-allow-private-addresses <true|false>',
        'accept webhook URLs on private, loopback or link-local addresses (default: false)',
        ['api', 'webhooks'],
      ],
      [
        '--webhooks-concurrency <n>',
        'webhook deliveries in flight per process (default: 4)',
        ['webhooks'],
      ],
      [
        '--standby-takeover-seconds <n>',
        'PostgreSQL: a standby takes a chain whose holder has not reported for this long (default: 120)',
        ['indexer'],
      ],
    ] as const
  ).map(([flags, description, readBy]) => ({
    flags,
    description,
    // What a running server reads: `scry dev` runs one on its own chains and database.
    on: ['dev', 'start'] as const,
    readBy,
  })),
]

/**
 * Flags given on the command line that none of the process's roles reads: `--role indexer
 * --port 9100` listens nowhere. Said, not refused, so a unit template shared by every role
 * keeps starting. (Settings from a config file or the environment are shared by every process
 * of a deployment, so only the command line is looked at.)
 */
function unreadFlags(options: Record<string, unknown>, roles: ReadonlySet<Role>): string[] {
  const out: string[] = []
  for (const { flags, readBy } of CONFIG_OPTIONS) {
    if (!readBy || readBy.some((r) => roles.has(r))) continue
    const option = new Option(flags)
    if (options[option.attributeName()] === undefined) continue
    out.push(
      `warning: ${option.long} is read by the ${readBy.join(' or ')} role, which this process does not run (--role ${[...roles].join(',')}); it has no effect here.${readBy.includes('api') ? ' Only API processes listen on a port.' : ''}\n`,
    )
  }
  return out
}

function addConfigOptions(command: Command, name: ConfigCommand): Command {
  for (const option of CONFIG_OPTIONS)
    if (option.on.includes(name)) command.option(option.flags, option.description)
  // Per-chain settings are `start`'s (`scry dev` makes its own chains); `status` asks the nodes.
  for (const field of CHAIN_FIELDS)
    if (name === 'start' || (name === 'status' && field.flag === '--rpc'))
      command.option(`${field.flag} <chainId=${field.valueName}>`, field.description, collect)
  return command
}

function chainIdArgument(value: string): number {
  const n = Number(value)
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('expected a numeric chain id (e.g. 8453).')
  }
  return n
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}

function readVersion(): string {
  const { version } = createRequire(import.meta.url)('../../package.json') as { version: string }
  return version
}
