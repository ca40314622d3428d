// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A token that claims to be an Aave aToken of a real pool (it answers `POOL()` and
/// `UNDERLYING_ASSET_ADDRESS()`) without the pool listing it: never an Aave position.
contract LookalikeAToken is ERC20 {
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;

    constructor(address pool, address underlying) ERC20("Aave Lookalike", "aFAKE") {
        POOL = pool;
        UNDERLYING_ASSET_ADDRESS = underlying;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function scaledBalanceOf(address owner) external view returns (uint256) {
        return balanceOf(owner);
    }
}
