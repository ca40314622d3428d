// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// A hostile vault for tests: it reports `factor` times the assets it holds, so its shares
/// claim more than exists. Only the view functions lie.
contract InflatedVault is ERC4626 {
    uint256 public immutable factor;

    constructor(IERC20 asset_, uint256 factor_) ERC20("Inflated Vault", "INFL") ERC4626(asset_) {
        factor = factor_;
    }

    function totalAssets() public view override returns (uint256) {
        return super.totalAssets() * factor;
    }
}
