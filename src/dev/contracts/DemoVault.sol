// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// Plain OpenZeppelin ERC4626 vault; yield is whatever is sent to it. `offset` is the
/// virtual-shares decimals offset (inflation-attack defence), which changes the rounding.
contract DemoVault is ERC4626 {
    uint8 private immutable _offset;

    constructor(IERC20 asset_, string memory name_, string memory symbol_, uint8 offset_)
        ERC20(name_, symbol_)
        ERC4626(asset_)
    {
        _offset = offset_;
    }

    function _decimalsOffset() internal view override returns (uint8) {
        return _offset;
    }
}
