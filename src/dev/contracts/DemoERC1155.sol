// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Burnable} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Burnable.sol";

/// OpenZeppelin ERC1155 with public mint; the uri keeps the `{id}` placeholder of the standard.
contract DemoERC1155 is ERC1155, ERC1155Burnable {
    string public name;
    string public symbol;

    constructor(string memory name_, string memory symbol_, string memory uri_) ERC1155(uri_) {
        name = name_;
        symbol = symbol_;
    }

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        _mintBatch(to, ids, amounts, "");
    }
}
