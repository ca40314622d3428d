// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Burnable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Burnable.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// OpenZeppelin ERC721 with public mint. tokenURI is either `ipfs://<cid>/<id>.json`
/// or an inline `data:application/json;base64,` document, chosen at deploy.
contract DemoERC721 is ERC721, ERC721Burnable {
    uint256 public nextTokenId = 1;
    bool public immutable inlineMetadata;
    string private _ipfsBase;

    constructor(string memory name_, string memory symbol_, bool inlineMetadata_, string memory ipfsBase_)
        ERC721(name_, symbol_)
    {
        inlineMetadata = inlineMetadata_;
        _ipfsBase = ipfsBase_;
    }

    function mint(address to) external returns (uint256 tokenId) {
        tokenId = nextTokenId++;
        _safeMint(to, tokenId);
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        string memory id = Strings.toString(tokenId);
        if (!inlineMetadata) return string.concat(_ipfsBase, id, ".json");
        bytes memory json = abi.encodePacked(
            '{"name":"', name(), " #", id, '","description":"Scry demo NFT","image":"ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/', id, '.png"}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(json));
    }
}
