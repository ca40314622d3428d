// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BareToken} from "./BareToken.sol";

/// Takes 2 % of every transfer. The Transfer event carries the gross amount between sender
/// and recipient only; the fee moves (or burns, when feeRecipient is zero) without an event,
/// so summing events does not give the balances.
contract FeeOnTransferToken is BareToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public constant FEE_BPS = 200;
    address public immutable feeRecipient;

    constructor(string memory name_, string memory symbol_, address feeRecipient_) {
        name = name_;
        symbol = symbol_;
        feeRecipient = feeRecipient_;
    }

    function _move(address from, address to, uint256 value) internal override {
        require(_balances[from] >= value, "balance");
        uint256 fee = (value * FEE_BPS) / 10_000;
        _balances[from] -= value;
        _balances[to] += value - fee;
        if (feeRecipient == address(0)) totalSupply -= fee;
        else _balances[feeRecipient] += fee;
        emit Transfer(from, to, value);
    }
}
