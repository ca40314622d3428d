// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Moves ETH in internal calls, so native transfers only show up in traces:
/// - `split`: pays each recipient an equal share.
/// - `splitVia`: hands the value to another forwarder, which splits it (nested calls).
/// - `splitCatching`: splits half, then tries to send the other half in a call that reverts
///   after paying `victim`; the revert is caught, so that inner transfer never happened and
///   the kept half goes back to the caller.
contract EthForwarder {
    event Forwarded(address indexed sender, uint256 value, uint256 recipients);
    event InnerReverted(address indexed victim, uint256 value);

    receive() external payable {}

    function split(address payable[] calldata to) public payable {
        require(to.length > 0, "no recipients");
        uint256 share = msg.value / to.length;
        for (uint256 i = 0; i < to.length; i++) _send(to[i], share);
        uint256 rest = msg.value - share * to.length;
        if (rest > 0) _send(payable(msg.sender), rest);
        emit Forwarded(msg.sender, msg.value, to.length);
    }

    function splitVia(EthForwarder next, address payable[] calldata to) external payable {
        next.split{value: msg.value}(to);
        emit Forwarded(msg.sender, msg.value, to.length);
    }

    function splitCatching(address payable[] calldata to, address payable victim) external payable {
        uint256 half = msg.value / 2;
        this.split{value: half}(to);
        uint256 other = msg.value - half;
        try this.sendThenRevert{value: other}(victim) {} catch {
            emit InnerReverted(victim, other);
        }
        _send(payable(msg.sender), other);
    }

    function sendThenRevert(address payable to) external payable {
        _send(to, msg.value);
        revert("reverted on purpose");
    }

    function _send(address payable to, uint256 value) private {
        (bool ok,) = to.call{value: value}("");
        require(ok, "send failed");
    }
}
