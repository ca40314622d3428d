import type { ActivityRecord, TokenStandard } from '../../store/schema.ts'
import type { Address } from '../types.ts'

/**
 * `ApprovalForAll` is one event in ERC721 and ERC1155, so `deriveHistory` leaves its `approve`
 * items without an asset type. Once the batch's tokens are known (the tokens table, or the
 * batch's own transfers), each gets its token's standard, so `asset_type=erc721` finds it; a
 * contract never seen moving a token stays null. Mutates the rows it is given.
 */
export function fillApprovalAssetTypes(
  activity: ActivityRecord[],
  standardOf: (token: Address) => TokenStandard | undefined,
): void {
  for (const row of activity) {
    if (row.type !== 'approve' || row.asset_type !== null || row.token_address === null) continue
    const standard = standardOf(row.token_address as Address)
    if (standard === 'erc721' || standard === 'erc1155') row.asset_type = standard
  }
}
