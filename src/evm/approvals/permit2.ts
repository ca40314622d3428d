import { parseAbi, toEventSelector } from 'viem'
import type { Address } from '../types.ts'

/**
 * Uniswap's Permit2: one contract at the same address on every chain (deployed with a
 * deterministic deployer). Its allowances let a spender move an owner's tokens without a
 * token-level allowance to that spender, so they are approvals too.
 */
export const PERMIT2_ADDRESS: Address = '0x000000000022d473030f116ddee9f6b43ac78ba3'

export const permit2Abi = parseAbi([
  'function allowance(address owner, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
  'event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)',
  'event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)',
  'event Lockdown(address indexed owner, address token, address spender)',
])

export const PERMIT2_APPROVAL_TOPIC = toEventSelector(
  'Approval(address,address,address,uint160,uint48)',
)
export const PERMIT2_PERMIT_TOPIC = toEventSelector(
  'Permit(address,address,address,uint160,uint48,uint48)',
)
export const PERMIT2_LOCKDOWN_TOPIC = toEventSelector('Lockdown(address,address,address)')
