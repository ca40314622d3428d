// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// A hostile vault for tests: its share conversions spin until the call runs out of gas and
/// fails, so a reader without a gas cap per call pays for the node's whole call gas limit.
contract GasBurnerVault is ERC4626 {
    uint256 private sink;

    constructor(IERC20 asset_) ERC20("Gas Burner Vault", "BURN") ERC4626(asset_) {}

    function convertToAssets(uint256) public view override returns (uint256 x) {
        x = sink;
        // A hash chain never reaching 1: the loop ends only when the gas does.
        while (x != 1) x = uint256(keccak256(abi.encode(x)));
    }

    function previewRedeem(uint256 shares) public view override returns (uint256) {
        return convertToAssets(shares);
    }
}
