import { mnemonicToAccount } from 'viem/accounts'
import type { Address, Hex } from '../evm/types.ts'

/** The mnemonic anvil derives its dev accounts from unless told otherwise. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

export type AnvilAccount = { address: Address; privateKey: Hex }

const derived: AnvilAccount[] = []

/**
 * The first `count` dev accounts of anvil's default mnemonic (the ones `startAnvil` funds),
 * addresses lowercase. Derivation is slow-ish (PBKDF2), so results are kept.
 */
export function anvilAccounts(count = 20): AnvilAccount[] {
  for (let i = derived.length; i < count; i++) {
    const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i })
    const key = account.getHdKey().privateKey
    if (!key) throw new Error(`No private key derived for anvil account ${i}.`)
    derived.push({
      address: account.address.toLowerCase() as Address,
      privateKey: `0x${Buffer.from(key).toString('hex')}`,
    })
  }
  return derived.slice(0, count)
}
