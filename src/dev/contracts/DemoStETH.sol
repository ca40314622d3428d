// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Behaves like Lido's stETH: holders own shares of the pooled ether; `balanceOf` is
/// shares × totalPooledEther / totalShares (rounded down), so a report that changes the
/// pooled ether moves every balance at once with no Transfer event. `submit` mints shares at
/// the current rate. Here an operator's `report` sets the pooled ether (up or down).
contract DemoStETH {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event TransferShares(address indexed from, address indexed to, uint256 sharesValue);
    event Submitted(address indexed sender, uint256 amount, address referral);
    event TokenRebased(uint256 preTotalEther, uint256 postTotalEther, uint256 totalShares);

    string public constant name = "Liquid staked Ether 2.0";
    string public constant symbol = "stETH";
    uint8 public constant decimals = 18;

    address public immutable operator;
    uint256 private _totalPooledEther;
    uint256 private _totalShares;
    mapping(address => uint256) private _shares;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor() {
        operator = msg.sender;
    }

    function getTotalPooledEther() public view returns (uint256) {
        return _totalPooledEther;
    }

    function getTotalShares() public view returns (uint256) {
        return _totalShares;
    }

    function totalSupply() external view returns (uint256) {
        return _totalPooledEther;
    }

    function sharesOf(address account) external view returns (uint256) {
        return _shares[account];
    }

    function balanceOf(address account) external view returns (uint256) {
        return getPooledEthByShares(_shares[account]);
    }

    function getSharesByPooledEth(uint256 ethAmount) public view returns (uint256) {
        if (_totalPooledEther == 0) return ethAmount;
        return (ethAmount * _totalShares) / _totalPooledEther;
    }

    function getPooledEthByShares(uint256 sharesAmount) public view returns (uint256) {
        if (_totalShares == 0) return 0;
        return (sharesAmount * _totalPooledEther) / _totalShares;
    }

    function submit(address referral) external payable returns (uint256) {
        require(msg.value > 0, "ZERO_DEPOSIT");
        uint256 shares = getSharesByPooledEth(msg.value);
        _totalShares += shares;
        _shares[msg.sender] += shares;
        _totalPooledEther += msg.value;
        emit Submitted(msg.sender, msg.value, referral);
        emit Transfer(address(0), msg.sender, getPooledEthByShares(shares));
        emit TransferShares(address(0), msg.sender, shares);
        return shares;
    }

    /// The oracle report: rewards (up) or slashing (down) of the pooled ether.
    function report(uint256 totalPooledEther) external {
        require(msg.sender == operator, "NOT_OPERATOR");
        emit TokenRebased(_totalPooledEther, totalPooledEther, _totalShares);
        _totalPooledEther = totalPooledEther;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ALLOWANCE_EXCEEDED");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function transferShares(address to, uint256 sharesAmount) external returns (uint256) {
        _moveShares(msg.sender, to, sharesAmount);
        uint256 value = getPooledEthByShares(sharesAmount);
        emit Transfer(msg.sender, to, value);
        emit TransferShares(msg.sender, to, sharesAmount);
        return value;
    }

    function _transfer(address from, address to, uint256 value) internal {
        uint256 shares = getSharesByPooledEth(value);
        _moveShares(from, to, shares);
        emit Transfer(from, to, value);
        emit TransferShares(from, to, shares);
    }

    function _moveShares(address from, address to, uint256 shares) internal {
        require(to != address(0), "TRANSFER_TO_ZERO_ADDR");
        require(_shares[from] >= shares, "BALANCE_EXCEEDED");
        _shares[from] -= shares;
        _shares[to] += shares;
    }
}
