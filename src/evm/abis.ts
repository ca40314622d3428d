import { parseAbi, toEventSelector, toFunctionSelector } from 'viem'

/**
 * The ABIs Scry decodes and reads. Events are what decode matches logs against; functions
 * are what derive reads through the source (metadata, balances, ownership, interfaces).
 */

export const erc20Abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
])

export const erc721Abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function balanceOf(address owner) view returns (uint256)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
])

export const erc1155Abi = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event ApprovalForAll(address indexed account, address indexed operator, bool approved)',
  'event URI(string value, uint256 indexed id)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function uri(uint256 id) view returns (string)',
])

/** WETH9's own events; other wrapped-native tokens copy them. */
export const wethAbi = parseAbi([
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
])

export const erc165Abi = parseAbi([
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
])

/** ERC165 interface ids, for telling ERC721 from ERC1155 when they share an event. */
export const ERC721_INTERFACE_ID = '0x80ac58cd'
export const ERC721_METADATA_INTERFACE_ID = '0x5b5e139f'
export const ERC1155_INTERFACE_ID = '0xd9b67a26'

/** An owner's balance: ERC20 and ERC721 share this selector. */
export const BALANCE_OF_SELECTOR = toFunctionSelector('balanceOf(address)')

/** ERC20 and ERC721 share this topic0; the number of topics tells them apart. */
export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)')
/** ERC20 and ERC721 share this topic0; the number of topics tells them apart. */
export const APPROVAL_TOPIC = toEventSelector('Approval(address,address,uint256)')
/** ERC721 and ERC1155 share this topic0. */
export const APPROVAL_FOR_ALL_TOPIC = toEventSelector('ApprovalForAll(address,address,bool)')
export const TRANSFER_SINGLE_TOPIC = toEventSelector(
  'TransferSingle(address,address,address,uint256,uint256)',
)
export const TRANSFER_BATCH_TOPIC = toEventSelector(
  'TransferBatch(address,address,address,uint256[],uint256[])',
)
export const URI_TOPIC = toEventSelector('URI(string,uint256)')
export const DEPOSIT_TOPIC = toEventSelector('Deposit(address,uint256)')
export const WITHDRAWAL_TOPIC = toEventSelector('Withdrawal(address,uint256)')
