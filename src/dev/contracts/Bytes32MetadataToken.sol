// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BareToken} from "./BareToken.sol";

/// name() and symbol() return bytes32, like MKR and SAI.
contract Bytes32MetadataToken is BareToken {
    bytes32 public name;
    bytes32 public symbol;
    uint8 public constant decimals = 18;

    constructor(bytes32 name_, bytes32 symbol_) {
        name = name_;
        symbol = symbol_;
    }
}
