// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BareToken} from "./BareToken.sol";

/// An ERC20 without decimals() (optional in EIP-20).
contract NoDecimalsToken is BareToken {
    string public name;
    string public symbol;

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }
}
