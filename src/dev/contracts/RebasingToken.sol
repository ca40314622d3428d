// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Balances are shares × index. `rebase` changes every balance (and totalSupply) at once
/// without any Transfer event, like stETH or AMPL.
contract RebasingToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Rebased(uint256 oldIndexBps, uint256 newIndexBps);

    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    /// 10_000 = 1.0
    uint256 public indexBps = 10_000;
    uint256 public totalShares;
    mapping(address => uint256) public sharesOf;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function balanceOf(address account) external view returns (uint256) {
        return (sharesOf[account] * indexBps) / 10_000;
    }

    function totalSupply() external view returns (uint256) {
        return (totalShares * indexBps) / 10_000;
    }

    /// Demo token: anyone may rebase.
    function rebase(uint256 newIndexBps) external {
        require(newIndexBps > 0, "index");
        emit Rebased(indexBps, newIndexBps);
        indexBps = newIndexBps;
    }

    function mint(address to, uint256 value) external {
        uint256 shares = (value * 10_000) / indexBps;
        totalShares += shares;
        sharesOf[to] += shares;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        uint256 shares = (value * 10_000) / indexBps;
        require(sharesOf[from] >= shares, "balance");
        sharesOf[from] -= shares;
        sharesOf[to] += shares;
        emit Transfer(from, to, value);
    }
}
