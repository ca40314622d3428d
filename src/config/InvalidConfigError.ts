import { ConfigError } from '../internal/errors.ts'

/** All problems found in the configuration, reported together. */
export class InvalidConfigError extends ConfigError {
  override name = 'InvalidConfigError'
  /** One line per problem: `<key path, variable or flag>: <what is wrong>`. */
  readonly issues: readonly string[]

  constructor({
    issues,
    configFile,
  }: { issues: readonly string[]; configFile?: string | undefined }) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`, {
      ...(configFile ? { details: `config file: ${configFile}` } : {}),
      code: 'INVALID_CONFIG',
    })
    this.issues = issues
  }
}
