// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// What spam NFTs look like: unsolicited mints to many wallets and a lure in the metadata.
contract SpamAirdropper is ERC721 {
    uint256 public nextTokenId = 1;

    constructor() ERC721("Claim Your Reward", "CLAIM") {}

    function airdrop(address[] calldata to) external {
        for (uint256 i = 0; i < to.length; i++) _mint(to[i], nextTokenId++);
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        return string.concat("http://bit.ly/claim-reward?id=", Strings.toString(tokenId));
    }
}
