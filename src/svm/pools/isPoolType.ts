import { POOL_TYPES, type PoolType } from './poolTypes.ts'

export function isPoolType(value: string): value is PoolType {
  return (POOL_TYPES as readonly string[]).includes(value)
}
