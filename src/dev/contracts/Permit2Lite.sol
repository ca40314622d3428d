// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// The allowance half of Uniswap's Permit2 (AllowanceTransfer) for tests: the same storage
/// view `allowance(owner, token, spender)`, the same events (Approval, Permit, Lockdown) and
/// the same rules (uint160 amounts, max amount never decreases, expiry, 0 = this block),
/// with `permit` taking flat arguments. Permit2's own bytecode is not on npm.
contract Permit2Lite is EIP712 {
    using SafeERC20 for IERC20;

    struct PackedAllowance {
        uint160 amount;
        uint48 expiration;
        uint48 nonce;
    }

    struct TokenSpenderPair {
        address token;
        address spender;
    }

    bytes32 private constant PERMIT_TYPEHASH = keccak256(
        "PermitSingle(address owner,address token,address spender,uint160 amount,uint48 expiration,uint48 nonce,uint256 sigDeadline)"
    );

    mapping(address => mapping(address => mapping(address => PackedAllowance))) public allowance;

    event Approval(
        address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration
    );
    event Permit(
        address indexed owner,
        address indexed token,
        address indexed spender,
        uint160 amount,
        uint48 expiration,
        uint48 nonce
    );
    event Lockdown(address indexed owner, address token, address spender);

    error AllowanceExpired(uint256 deadline);
    error InsufficientAllowance(uint256 amount);
    error SignatureExpired(uint256 deadline);
    error InvalidSigner();

    constructor() EIP712("Permit2", "1") {}

    function approve(address token, address spender, uint160 amount, uint48 expiration) external {
        PackedAllowance storage allowed = allowance[msg.sender][token][spender];
        allowed.amount = amount;
        allowed.expiration = expiration == 0 ? uint48(block.timestamp) : expiration;
        emit Approval(msg.sender, token, spender, amount, expiration);
    }

    function permit(
        address owner,
        address token,
        address spender,
        uint160 amount,
        uint48 expiration,
        uint256 sigDeadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (block.timestamp > sigDeadline) revert SignatureExpired(sigDeadline);
        PackedAllowance storage allowed = allowance[owner][token][spender];
        uint48 nonce = allowed.nonce;
        bytes32 digest = _hashTypedDataV4(
            keccak256(abi.encode(PERMIT_TYPEHASH, owner, token, spender, amount, expiration, nonce, sigDeadline))
        );
        if (ECDSA.recover(digest, v, r, s) != owner) revert InvalidSigner();
        allowed.amount = amount;
        allowed.expiration = expiration == 0 ? uint48(block.timestamp) : expiration;
        allowed.nonce = nonce + 1;
        emit Permit(owner, token, spender, amount, expiration, nonce);
    }

    function transferFrom(address from, address to, uint160 amount, address token) external {
        PackedAllowance storage allowed = allowance[from][token][msg.sender];
        if (block.timestamp > allowed.expiration) revert AllowanceExpired(allowed.expiration);
        if (allowed.amount != type(uint160).max) {
            if (amount > allowed.amount) revert InsufficientAllowance(allowed.amount);
            allowed.amount -= amount;
        }
        IERC20(token).safeTransferFrom(from, to, amount);
    }

    function lockdown(TokenSpenderPair[] calldata approvals) external {
        for (uint256 i = 0; i < approvals.length; ++i) {
            allowance[msg.sender][approvals[i].token][approvals[i].spender].amount = 0;
            emit Lockdown(msg.sender, approvals[i].token, approvals[i].spender);
        }
    }

    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }
}
