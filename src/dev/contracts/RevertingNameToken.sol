// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BareToken} from "./BareToken.sol";

/// name() always reverts; symbol() works unless deployed with an empty symbol, then it
/// reverts too.
contract RevertingNameToken is BareToken {
    string private _symbol;
    uint8 public constant decimals = 18;

    constructor(string memory symbol_) {
        _symbol = symbol_;
    }

    function name() external pure returns (string memory) {
        revert("no name");
    }

    function symbol() external view returns (string memory) {
        require(bytes(_symbol).length > 0, "no symbol");
        return _symbol;
    }
}
