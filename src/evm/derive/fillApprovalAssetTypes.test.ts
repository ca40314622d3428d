import { expect, test } from 'vitest'
import type { ActivityRecord } from '../../store/schema.ts'
import { fillApprovalAssetTypes } from './fillApprovalAssetTypes.ts'

const row = (fields: Partial<ActivityRecord>) => ({ ...fields }) as ActivityRecord

test('behavior: an operator approval takes its NFT contract standard; anything else is left', () => {
  const rows = [
    row({ type: 'approve', asset_type: null, token_address: '0xa1' }),
    row({ type: 'approve', asset_type: null, token_address: '0xb2' }),
    row({ type: 'approve', asset_type: null, token_address: '0xc3' }),
    row({ type: 'approve', asset_type: 'erc20', token_address: '0xa1' }),
    row({ type: 'send', asset_type: null, token_address: '0xa1' }),
  ]
  const standards = new Map([
    ['0xa1', 'erc721'],
    ['0xb2', 'erc1155'],
  ] as const)
  fillApprovalAssetTypes(rows, (token) => standards.get(token as never))
  expect(rows.map((r) => r.asset_type)).toEqual(['erc721', 'erc1155', null, 'erc20', null])
})
