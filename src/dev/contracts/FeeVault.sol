// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// OpenZeppelin ERC4626 vault with an exit fee: `previewRedeem` (and so `redeem`) pays the
/// assets less `exitFeeBps`, rounded against the redeemer; the fee stays in the vault.
/// `convertToAssets` ignores the fee, as the standard says it should.
contract FeeVault is ERC4626 {
    uint256 public immutable exitFeeBps;

    constructor(IERC20 asset_, string memory name_, string memory symbol_, uint256 exitFeeBps_)
        ERC20(name_, symbol_)
        ERC4626(asset_)
    {
        exitFeeBps = exitFeeBps_;
    }

    function previewRedeem(uint256 shares) public view override returns (uint256) {
        uint256 assets = super.previewRedeem(shares);
        return assets - Math.mulDiv(assets, exitFeeBps, 10_000, Math.Rounding.Ceil);
    }
}
